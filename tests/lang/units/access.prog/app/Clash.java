package app;

import lib.Open;
import other.Open;
import geo.Util;

class Clash { }

class Open2 extends Object { }
// expect error: 4: package other does not exist
// expect error: 5: package geo does not exist
