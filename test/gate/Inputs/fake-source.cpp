// fake
void f() {
  for (;;) {
    int x = 0;
    loss.backward();
  }
}
