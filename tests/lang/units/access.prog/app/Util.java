package app;

public class Util { }
