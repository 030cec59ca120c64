class Shared { }
// expect error: 1: duplicate class: Shared
