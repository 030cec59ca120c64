package shop;
public enum Size { S, M; public int n() { return ordinal() + 1; } }
