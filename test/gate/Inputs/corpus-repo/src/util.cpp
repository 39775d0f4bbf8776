// Not LibTorch code: not analysed.
int add(int a, int b) { return a + b; }
