class Other {
    public void main(String[] args) { }   // not static
}
