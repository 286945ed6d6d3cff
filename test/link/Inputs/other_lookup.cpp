// A second, different definition of lookup(), for
// mismatched-definition-is-an-error.test.
int lookup(int i) { return i * 4; }
