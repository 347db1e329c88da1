// expected-error@+1 {{decompose-format: bsr block size must be a positive integer, got '0'}}
module {
}
