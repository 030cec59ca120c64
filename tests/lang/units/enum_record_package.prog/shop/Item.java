package shop;
public record Item(String name, Size size) { }
