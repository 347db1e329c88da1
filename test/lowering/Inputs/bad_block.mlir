// expected-error@+1 {{decompose-format: bsr block size must be a positive integer up to 2147483647, got '0'}}
module {
}
