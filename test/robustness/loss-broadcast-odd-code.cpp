// Shapes that stress the value-shape analysis behind torch-loss-broadcast:
// recursive forwards and functions, a variable initialised from itself, a long
// chain of locals, class templates, dependent code, macros, a lambda calling
// itself through std::function. Nothing hangs or crashes, and
// what is reported is right.
// RUN: %check_torch_tidy %s torch-loss-broadcast %t.mock -- %mock_flags -Wno-uninitialized

#include <torch/torch.h>

#include <functional>

// Mutually recursive forwards: unknown.
struct PongImpl;
struct PingImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x);
  std::shared_ptr<PongImpl> pong;
};
struct PongImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return ping->forward(x.view({-1, 4})); }
  std::shared_ptr<PingImpl> ping;
};
torch::Tensor PingImpl::forward(torch::Tensor x) { return pong->forward(x); }

torch::Tensor recursion(std::shared_ptr<PingImpl> m, torch::Tensor y) {
  return torch::mse_loss(m->forward(torch::randn({8, 4})), y.view({-1}));
}

// A recursive function: unknown.
torch::Tensor deepen(torch::Tensor x, int n) {
  return n == 0 ? x : deepen(x.unsqueeze(1), n - 1);
}
torch::Tensor self_call(torch::Tensor y) {
  return torch::mse_loss(deepen(torch::randn({8}), 1), y.view({-1}));
}

// A lambda that calls itself through std::function: unknown.
torch::Tensor self_lambda(torch::Tensor y) {
  std::function<torch::Tensor(torch::Tensor)> f = [&](torch::Tensor t) { return f(t); };
  return torch::l1_loss(f(torch::randn({8, 1})), y.view({-1}));
}

// A variable initialised from itself (its view gives [N, 1] whatever it is).
torch::Tensor self_init(torch::Tensor y) {
  torch::Tensor t = t.view({-1, 1});
  return torch::mse_loss(t, y.view({-1}));
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::mse_loss' is given a prediction of shape [N, 1] and a target of shape [N]{{.*}} [torch-loss-broadcast]
  // CHECK-FIXES: {{^}}  return torch::mse_loss(t.squeeze(1), y.view({-1}));{{$}}
}

// Class and function templates: dependent code is not read, instantiations are.
template <int K> struct HeadImpl : torch::nn::Module {
  HeadImpl() { out = register_module("out", torch::nn::Linear(K, 1)); }
  torch::Tensor forward(torch::Tensor x) { return out(x.view({-1, K})); }
  torch::nn::Linear out{nullptr};
};
template <typename T> torch::Tensor dependent(T &model, torch::Tensor y) {
  return torch::mse_loss(model.forward(torch::randn({4, 3})), y.view({-1}));
}
template struct HeadImpl<3>;
template torch::Tensor dependent<HeadImpl<3>>(HeadImpl<3> &, torch::Tensor);
// CHECK-MESSAGES: :[[@LINE-4]]:10: warning: 'torch::mse_loss' is given a prediction of shape [4, 1] and a target of shape [N]{{.*}} [torch-loss-broadcast]

// The loss in a macro: reported at the expansion, no fix-it.
#define REGRESS(p, t) torch::mse_loss(p, t)
torch::Tensor in_macro(HeadImpl<3> &model, torch::Tensor y) {
  return REGRESS(model.forward(torch::randn({4, 3})), y.view({-1}));
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::mse_loss' is given a prediction of shape [4, 1]{{.*}} [torch-loss-broadcast]
}
// A chain of 400 locals, deeper than the analysis reads: silence, where reading
// it whole would give [8, 1].
torch::Tensor chain(torch::Tensor y) {
  auto a0 = torch::randn({8});
  auto a1 = a0.unsqueeze(1).squeeze(1);
  auto a2 = a1.unsqueeze(1).squeeze(1);
  auto a3 = a2.unsqueeze(1).squeeze(1);
  auto a4 = a3.unsqueeze(1).squeeze(1);
  auto a5 = a4.unsqueeze(1).squeeze(1);
  auto a6 = a5.unsqueeze(1).squeeze(1);
  auto a7 = a6.unsqueeze(1).squeeze(1);
  auto a8 = a7.unsqueeze(1).squeeze(1);
  auto a9 = a8.unsqueeze(1).squeeze(1);
  auto a10 = a9.unsqueeze(1).squeeze(1);
  auto a11 = a10.unsqueeze(1).squeeze(1);
  auto a12 = a11.unsqueeze(1).squeeze(1);
  auto a13 = a12.unsqueeze(1).squeeze(1);
  auto a14 = a13.unsqueeze(1).squeeze(1);
  auto a15 = a14.unsqueeze(1).squeeze(1);
  auto a16 = a15.unsqueeze(1).squeeze(1);
  auto a17 = a16.unsqueeze(1).squeeze(1);
  auto a18 = a17.unsqueeze(1).squeeze(1);
  auto a19 = a18.unsqueeze(1).squeeze(1);
  auto a20 = a19.unsqueeze(1).squeeze(1);
  auto a21 = a20.unsqueeze(1).squeeze(1);
  auto a22 = a21.unsqueeze(1).squeeze(1);
  auto a23 = a22.unsqueeze(1).squeeze(1);
  auto a24 = a23.unsqueeze(1).squeeze(1);
  auto a25 = a24.unsqueeze(1).squeeze(1);
  auto a26 = a25.unsqueeze(1).squeeze(1);
  auto a27 = a26.unsqueeze(1).squeeze(1);
  auto a28 = a27.unsqueeze(1).squeeze(1);
  auto a29 = a28.unsqueeze(1).squeeze(1);
  auto a30 = a29.unsqueeze(1).squeeze(1);
  auto a31 = a30.unsqueeze(1).squeeze(1);
  auto a32 = a31.unsqueeze(1).squeeze(1);
  auto a33 = a32.unsqueeze(1).squeeze(1);
  auto a34 = a33.unsqueeze(1).squeeze(1);
  auto a35 = a34.unsqueeze(1).squeeze(1);
  auto a36 = a35.unsqueeze(1).squeeze(1);
  auto a37 = a36.unsqueeze(1).squeeze(1);
  auto a38 = a37.unsqueeze(1).squeeze(1);
  auto a39 = a38.unsqueeze(1).squeeze(1);
  auto a40 = a39.unsqueeze(1).squeeze(1);
  auto a41 = a40.unsqueeze(1).squeeze(1);
  auto a42 = a41.unsqueeze(1).squeeze(1);
  auto a43 = a42.unsqueeze(1).squeeze(1);
  auto a44 = a43.unsqueeze(1).squeeze(1);
  auto a45 = a44.unsqueeze(1).squeeze(1);
  auto a46 = a45.unsqueeze(1).squeeze(1);
  auto a47 = a46.unsqueeze(1).squeeze(1);
  auto a48 = a47.unsqueeze(1).squeeze(1);
  auto a49 = a48.unsqueeze(1).squeeze(1);
  auto a50 = a49.unsqueeze(1).squeeze(1);
  auto a51 = a50.unsqueeze(1).squeeze(1);
  auto a52 = a51.unsqueeze(1).squeeze(1);
  auto a53 = a52.unsqueeze(1).squeeze(1);
  auto a54 = a53.unsqueeze(1).squeeze(1);
  auto a55 = a54.unsqueeze(1).squeeze(1);
  auto a56 = a55.unsqueeze(1).squeeze(1);
  auto a57 = a56.unsqueeze(1).squeeze(1);
  auto a58 = a57.unsqueeze(1).squeeze(1);
  auto a59 = a58.unsqueeze(1).squeeze(1);
  auto a60 = a59.unsqueeze(1).squeeze(1);
  auto a61 = a60.unsqueeze(1).squeeze(1);
  auto a62 = a61.unsqueeze(1).squeeze(1);
  auto a63 = a62.unsqueeze(1).squeeze(1);
  auto a64 = a63.unsqueeze(1).squeeze(1);
  auto a65 = a64.unsqueeze(1).squeeze(1);
  auto a66 = a65.unsqueeze(1).squeeze(1);
  auto a67 = a66.unsqueeze(1).squeeze(1);
  auto a68 = a67.unsqueeze(1).squeeze(1);
  auto a69 = a68.unsqueeze(1).squeeze(1);
  auto a70 = a69.unsqueeze(1).squeeze(1);
  auto a71 = a70.unsqueeze(1).squeeze(1);
  auto a72 = a71.unsqueeze(1).squeeze(1);
  auto a73 = a72.unsqueeze(1).squeeze(1);
  auto a74 = a73.unsqueeze(1).squeeze(1);
  auto a75 = a74.unsqueeze(1).squeeze(1);
  auto a76 = a75.unsqueeze(1).squeeze(1);
  auto a77 = a76.unsqueeze(1).squeeze(1);
  auto a78 = a77.unsqueeze(1).squeeze(1);
  auto a79 = a78.unsqueeze(1).squeeze(1);
  auto a80 = a79.unsqueeze(1).squeeze(1);
  auto a81 = a80.unsqueeze(1).squeeze(1);
  auto a82 = a81.unsqueeze(1).squeeze(1);
  auto a83 = a82.unsqueeze(1).squeeze(1);
  auto a84 = a83.unsqueeze(1).squeeze(1);
  auto a85 = a84.unsqueeze(1).squeeze(1);
  auto a86 = a85.unsqueeze(1).squeeze(1);
  auto a87 = a86.unsqueeze(1).squeeze(1);
  auto a88 = a87.unsqueeze(1).squeeze(1);
  auto a89 = a88.unsqueeze(1).squeeze(1);
  auto a90 = a89.unsqueeze(1).squeeze(1);
  auto a91 = a90.unsqueeze(1).squeeze(1);
  auto a92 = a91.unsqueeze(1).squeeze(1);
  auto a93 = a92.unsqueeze(1).squeeze(1);
  auto a94 = a93.unsqueeze(1).squeeze(1);
  auto a95 = a94.unsqueeze(1).squeeze(1);
  auto a96 = a95.unsqueeze(1).squeeze(1);
  auto a97 = a96.unsqueeze(1).squeeze(1);
  auto a98 = a97.unsqueeze(1).squeeze(1);
  auto a99 = a98.unsqueeze(1).squeeze(1);
  auto a100 = a99.unsqueeze(1).squeeze(1);
  auto a101 = a100.unsqueeze(1).squeeze(1);
  auto a102 = a101.unsqueeze(1).squeeze(1);
  auto a103 = a102.unsqueeze(1).squeeze(1);
  auto a104 = a103.unsqueeze(1).squeeze(1);
  auto a105 = a104.unsqueeze(1).squeeze(1);
  auto a106 = a105.unsqueeze(1).squeeze(1);
  auto a107 = a106.unsqueeze(1).squeeze(1);
  auto a108 = a107.unsqueeze(1).squeeze(1);
  auto a109 = a108.unsqueeze(1).squeeze(1);
  auto a110 = a109.unsqueeze(1).squeeze(1);
  auto a111 = a110.unsqueeze(1).squeeze(1);
  auto a112 = a111.unsqueeze(1).squeeze(1);
  auto a113 = a112.unsqueeze(1).squeeze(1);
  auto a114 = a113.unsqueeze(1).squeeze(1);
  auto a115 = a114.unsqueeze(1).squeeze(1);
  auto a116 = a115.unsqueeze(1).squeeze(1);
  auto a117 = a116.unsqueeze(1).squeeze(1);
  auto a118 = a117.unsqueeze(1).squeeze(1);
  auto a119 = a118.unsqueeze(1).squeeze(1);
  auto a120 = a119.unsqueeze(1).squeeze(1);
  auto a121 = a120.unsqueeze(1).squeeze(1);
  auto a122 = a121.unsqueeze(1).squeeze(1);
  auto a123 = a122.unsqueeze(1).squeeze(1);
  auto a124 = a123.unsqueeze(1).squeeze(1);
  auto a125 = a124.unsqueeze(1).squeeze(1);
  auto a126 = a125.unsqueeze(1).squeeze(1);
  auto a127 = a126.unsqueeze(1).squeeze(1);
  auto a128 = a127.unsqueeze(1).squeeze(1);
  auto a129 = a128.unsqueeze(1).squeeze(1);
  auto a130 = a129.unsqueeze(1).squeeze(1);
  auto a131 = a130.unsqueeze(1).squeeze(1);
  auto a132 = a131.unsqueeze(1).squeeze(1);
  auto a133 = a132.unsqueeze(1).squeeze(1);
  auto a134 = a133.unsqueeze(1).squeeze(1);
  auto a135 = a134.unsqueeze(1).squeeze(1);
  auto a136 = a135.unsqueeze(1).squeeze(1);
  auto a137 = a136.unsqueeze(1).squeeze(1);
  auto a138 = a137.unsqueeze(1).squeeze(1);
  auto a139 = a138.unsqueeze(1).squeeze(1);
  auto a140 = a139.unsqueeze(1).squeeze(1);
  auto a141 = a140.unsqueeze(1).squeeze(1);
  auto a142 = a141.unsqueeze(1).squeeze(1);
  auto a143 = a142.unsqueeze(1).squeeze(1);
  auto a144 = a143.unsqueeze(1).squeeze(1);
  auto a145 = a144.unsqueeze(1).squeeze(1);
  auto a146 = a145.unsqueeze(1).squeeze(1);
  auto a147 = a146.unsqueeze(1).squeeze(1);
  auto a148 = a147.unsqueeze(1).squeeze(1);
  auto a149 = a148.unsqueeze(1).squeeze(1);
  auto a150 = a149.unsqueeze(1).squeeze(1);
  auto a151 = a150.unsqueeze(1).squeeze(1);
  auto a152 = a151.unsqueeze(1).squeeze(1);
  auto a153 = a152.unsqueeze(1).squeeze(1);
  auto a154 = a153.unsqueeze(1).squeeze(1);
  auto a155 = a154.unsqueeze(1).squeeze(1);
  auto a156 = a155.unsqueeze(1).squeeze(1);
  auto a157 = a156.unsqueeze(1).squeeze(1);
  auto a158 = a157.unsqueeze(1).squeeze(1);
  auto a159 = a158.unsqueeze(1).squeeze(1);
  auto a160 = a159.unsqueeze(1).squeeze(1);
  auto a161 = a160.unsqueeze(1).squeeze(1);
  auto a162 = a161.unsqueeze(1).squeeze(1);
  auto a163 = a162.unsqueeze(1).squeeze(1);
  auto a164 = a163.unsqueeze(1).squeeze(1);
  auto a165 = a164.unsqueeze(1).squeeze(1);
  auto a166 = a165.unsqueeze(1).squeeze(1);
  auto a167 = a166.unsqueeze(1).squeeze(1);
  auto a168 = a167.unsqueeze(1).squeeze(1);
  auto a169 = a168.unsqueeze(1).squeeze(1);
  auto a170 = a169.unsqueeze(1).squeeze(1);
  auto a171 = a170.unsqueeze(1).squeeze(1);
  auto a172 = a171.unsqueeze(1).squeeze(1);
  auto a173 = a172.unsqueeze(1).squeeze(1);
  auto a174 = a173.unsqueeze(1).squeeze(1);
  auto a175 = a174.unsqueeze(1).squeeze(1);
  auto a176 = a175.unsqueeze(1).squeeze(1);
  auto a177 = a176.unsqueeze(1).squeeze(1);
  auto a178 = a177.unsqueeze(1).squeeze(1);
  auto a179 = a178.unsqueeze(1).squeeze(1);
  auto a180 = a179.unsqueeze(1).squeeze(1);
  auto a181 = a180.unsqueeze(1).squeeze(1);
  auto a182 = a181.unsqueeze(1).squeeze(1);
  auto a183 = a182.unsqueeze(1).squeeze(1);
  auto a184 = a183.unsqueeze(1).squeeze(1);
  auto a185 = a184.unsqueeze(1).squeeze(1);
  auto a186 = a185.unsqueeze(1).squeeze(1);
  auto a187 = a186.unsqueeze(1).squeeze(1);
  auto a188 = a187.unsqueeze(1).squeeze(1);
  auto a189 = a188.unsqueeze(1).squeeze(1);
  auto a190 = a189.unsqueeze(1).squeeze(1);
  auto a191 = a190.unsqueeze(1).squeeze(1);
  auto a192 = a191.unsqueeze(1).squeeze(1);
  auto a193 = a192.unsqueeze(1).squeeze(1);
  auto a194 = a193.unsqueeze(1).squeeze(1);
  auto a195 = a194.unsqueeze(1).squeeze(1);
  auto a196 = a195.unsqueeze(1).squeeze(1);
  auto a197 = a196.unsqueeze(1).squeeze(1);
  auto a198 = a197.unsqueeze(1).squeeze(1);
  auto a199 = a198.unsqueeze(1).squeeze(1);
  auto a200 = a199.unsqueeze(1).squeeze(1);
  auto a201 = a200.unsqueeze(1).squeeze(1);
  auto a202 = a201.unsqueeze(1).squeeze(1);
  auto a203 = a202.unsqueeze(1).squeeze(1);
  auto a204 = a203.unsqueeze(1).squeeze(1);
  auto a205 = a204.unsqueeze(1).squeeze(1);
  auto a206 = a205.unsqueeze(1).squeeze(1);
  auto a207 = a206.unsqueeze(1).squeeze(1);
  auto a208 = a207.unsqueeze(1).squeeze(1);
  auto a209 = a208.unsqueeze(1).squeeze(1);
  auto a210 = a209.unsqueeze(1).squeeze(1);
  auto a211 = a210.unsqueeze(1).squeeze(1);
  auto a212 = a211.unsqueeze(1).squeeze(1);
  auto a213 = a212.unsqueeze(1).squeeze(1);
  auto a214 = a213.unsqueeze(1).squeeze(1);
  auto a215 = a214.unsqueeze(1).squeeze(1);
  auto a216 = a215.unsqueeze(1).squeeze(1);
  auto a217 = a216.unsqueeze(1).squeeze(1);
  auto a218 = a217.unsqueeze(1).squeeze(1);
  auto a219 = a218.unsqueeze(1).squeeze(1);
  auto a220 = a219.unsqueeze(1).squeeze(1);
  auto a221 = a220.unsqueeze(1).squeeze(1);
  auto a222 = a221.unsqueeze(1).squeeze(1);
  auto a223 = a222.unsqueeze(1).squeeze(1);
  auto a224 = a223.unsqueeze(1).squeeze(1);
  auto a225 = a224.unsqueeze(1).squeeze(1);
  auto a226 = a225.unsqueeze(1).squeeze(1);
  auto a227 = a226.unsqueeze(1).squeeze(1);
  auto a228 = a227.unsqueeze(1).squeeze(1);
  auto a229 = a228.unsqueeze(1).squeeze(1);
  auto a230 = a229.unsqueeze(1).squeeze(1);
  auto a231 = a230.unsqueeze(1).squeeze(1);
  auto a232 = a231.unsqueeze(1).squeeze(1);
  auto a233 = a232.unsqueeze(1).squeeze(1);
  auto a234 = a233.unsqueeze(1).squeeze(1);
  auto a235 = a234.unsqueeze(1).squeeze(1);
  auto a236 = a235.unsqueeze(1).squeeze(1);
  auto a237 = a236.unsqueeze(1).squeeze(1);
  auto a238 = a237.unsqueeze(1).squeeze(1);
  auto a239 = a238.unsqueeze(1).squeeze(1);
  auto a240 = a239.unsqueeze(1).squeeze(1);
  auto a241 = a240.unsqueeze(1).squeeze(1);
  auto a242 = a241.unsqueeze(1).squeeze(1);
  auto a243 = a242.unsqueeze(1).squeeze(1);
  auto a244 = a243.unsqueeze(1).squeeze(1);
  auto a245 = a244.unsqueeze(1).squeeze(1);
  auto a246 = a245.unsqueeze(1).squeeze(1);
  auto a247 = a246.unsqueeze(1).squeeze(1);
  auto a248 = a247.unsqueeze(1).squeeze(1);
  auto a249 = a248.unsqueeze(1).squeeze(1);
  auto a250 = a249.unsqueeze(1).squeeze(1);
  auto a251 = a250.unsqueeze(1).squeeze(1);
  auto a252 = a251.unsqueeze(1).squeeze(1);
  auto a253 = a252.unsqueeze(1).squeeze(1);
  auto a254 = a253.unsqueeze(1).squeeze(1);
  auto a255 = a254.unsqueeze(1).squeeze(1);
  auto a256 = a255.unsqueeze(1).squeeze(1);
  auto a257 = a256.unsqueeze(1).squeeze(1);
  auto a258 = a257.unsqueeze(1).squeeze(1);
  auto a259 = a258.unsqueeze(1).squeeze(1);
  auto a260 = a259.unsqueeze(1).squeeze(1);
  auto a261 = a260.unsqueeze(1).squeeze(1);
  auto a262 = a261.unsqueeze(1).squeeze(1);
  auto a263 = a262.unsqueeze(1).squeeze(1);
  auto a264 = a263.unsqueeze(1).squeeze(1);
  auto a265 = a264.unsqueeze(1).squeeze(1);
  auto a266 = a265.unsqueeze(1).squeeze(1);
  auto a267 = a266.unsqueeze(1).squeeze(1);
  auto a268 = a267.unsqueeze(1).squeeze(1);
  auto a269 = a268.unsqueeze(1).squeeze(1);
  auto a270 = a269.unsqueeze(1).squeeze(1);
  auto a271 = a270.unsqueeze(1).squeeze(1);
  auto a272 = a271.unsqueeze(1).squeeze(1);
  auto a273 = a272.unsqueeze(1).squeeze(1);
  auto a274 = a273.unsqueeze(1).squeeze(1);
  auto a275 = a274.unsqueeze(1).squeeze(1);
  auto a276 = a275.unsqueeze(1).squeeze(1);
  auto a277 = a276.unsqueeze(1).squeeze(1);
  auto a278 = a277.unsqueeze(1).squeeze(1);
  auto a279 = a278.unsqueeze(1).squeeze(1);
  auto a280 = a279.unsqueeze(1).squeeze(1);
  auto a281 = a280.unsqueeze(1).squeeze(1);
  auto a282 = a281.unsqueeze(1).squeeze(1);
  auto a283 = a282.unsqueeze(1).squeeze(1);
  auto a284 = a283.unsqueeze(1).squeeze(1);
  auto a285 = a284.unsqueeze(1).squeeze(1);
  auto a286 = a285.unsqueeze(1).squeeze(1);
  auto a287 = a286.unsqueeze(1).squeeze(1);
  auto a288 = a287.unsqueeze(1).squeeze(1);
  auto a289 = a288.unsqueeze(1).squeeze(1);
  auto a290 = a289.unsqueeze(1).squeeze(1);
  auto a291 = a290.unsqueeze(1).squeeze(1);
  auto a292 = a291.unsqueeze(1).squeeze(1);
  auto a293 = a292.unsqueeze(1).squeeze(1);
  auto a294 = a293.unsqueeze(1).squeeze(1);
  auto a295 = a294.unsqueeze(1).squeeze(1);
  auto a296 = a295.unsqueeze(1).squeeze(1);
  auto a297 = a296.unsqueeze(1).squeeze(1);
  auto a298 = a297.unsqueeze(1).squeeze(1);
  auto a299 = a298.unsqueeze(1).squeeze(1);
  auto a300 = a299.unsqueeze(1).squeeze(1);
  auto a301 = a300.unsqueeze(1).squeeze(1);
  auto a302 = a301.unsqueeze(1).squeeze(1);
  auto a303 = a302.unsqueeze(1).squeeze(1);
  auto a304 = a303.unsqueeze(1).squeeze(1);
  auto a305 = a304.unsqueeze(1).squeeze(1);
  auto a306 = a305.unsqueeze(1).squeeze(1);
  auto a307 = a306.unsqueeze(1).squeeze(1);
  auto a308 = a307.unsqueeze(1).squeeze(1);
  auto a309 = a308.unsqueeze(1).squeeze(1);
  auto a310 = a309.unsqueeze(1).squeeze(1);
  auto a311 = a310.unsqueeze(1).squeeze(1);
  auto a312 = a311.unsqueeze(1).squeeze(1);
  auto a313 = a312.unsqueeze(1).squeeze(1);
  auto a314 = a313.unsqueeze(1).squeeze(1);
  auto a315 = a314.unsqueeze(1).squeeze(1);
  auto a316 = a315.unsqueeze(1).squeeze(1);
  auto a317 = a316.unsqueeze(1).squeeze(1);
  auto a318 = a317.unsqueeze(1).squeeze(1);
  auto a319 = a318.unsqueeze(1).squeeze(1);
  auto a320 = a319.unsqueeze(1).squeeze(1);
  auto a321 = a320.unsqueeze(1).squeeze(1);
  auto a322 = a321.unsqueeze(1).squeeze(1);
  auto a323 = a322.unsqueeze(1).squeeze(1);
  auto a324 = a323.unsqueeze(1).squeeze(1);
  auto a325 = a324.unsqueeze(1).squeeze(1);
  auto a326 = a325.unsqueeze(1).squeeze(1);
  auto a327 = a326.unsqueeze(1).squeeze(1);
  auto a328 = a327.unsqueeze(1).squeeze(1);
  auto a329 = a328.unsqueeze(1).squeeze(1);
  auto a330 = a329.unsqueeze(1).squeeze(1);
  auto a331 = a330.unsqueeze(1).squeeze(1);
  auto a332 = a331.unsqueeze(1).squeeze(1);
  auto a333 = a332.unsqueeze(1).squeeze(1);
  auto a334 = a333.unsqueeze(1).squeeze(1);
  auto a335 = a334.unsqueeze(1).squeeze(1);
  auto a336 = a335.unsqueeze(1).squeeze(1);
  auto a337 = a336.unsqueeze(1).squeeze(1);
  auto a338 = a337.unsqueeze(1).squeeze(1);
  auto a339 = a338.unsqueeze(1).squeeze(1);
  auto a340 = a339.unsqueeze(1).squeeze(1);
  auto a341 = a340.unsqueeze(1).squeeze(1);
  auto a342 = a341.unsqueeze(1).squeeze(1);
  auto a343 = a342.unsqueeze(1).squeeze(1);
  auto a344 = a343.unsqueeze(1).squeeze(1);
  auto a345 = a344.unsqueeze(1).squeeze(1);
  auto a346 = a345.unsqueeze(1).squeeze(1);
  auto a347 = a346.unsqueeze(1).squeeze(1);
  auto a348 = a347.unsqueeze(1).squeeze(1);
  auto a349 = a348.unsqueeze(1).squeeze(1);
  auto a350 = a349.unsqueeze(1).squeeze(1);
  auto a351 = a350.unsqueeze(1).squeeze(1);
  auto a352 = a351.unsqueeze(1).squeeze(1);
  auto a353 = a352.unsqueeze(1).squeeze(1);
  auto a354 = a353.unsqueeze(1).squeeze(1);
  auto a355 = a354.unsqueeze(1).squeeze(1);
  auto a356 = a355.unsqueeze(1).squeeze(1);
  auto a357 = a356.unsqueeze(1).squeeze(1);
  auto a358 = a357.unsqueeze(1).squeeze(1);
  auto a359 = a358.unsqueeze(1).squeeze(1);
  auto a360 = a359.unsqueeze(1).squeeze(1);
  auto a361 = a360.unsqueeze(1).squeeze(1);
  auto a362 = a361.unsqueeze(1).squeeze(1);
  auto a363 = a362.unsqueeze(1).squeeze(1);
  auto a364 = a363.unsqueeze(1).squeeze(1);
  auto a365 = a364.unsqueeze(1).squeeze(1);
  auto a366 = a365.unsqueeze(1).squeeze(1);
  auto a367 = a366.unsqueeze(1).squeeze(1);
  auto a368 = a367.unsqueeze(1).squeeze(1);
  auto a369 = a368.unsqueeze(1).squeeze(1);
  auto a370 = a369.unsqueeze(1).squeeze(1);
  auto a371 = a370.unsqueeze(1).squeeze(1);
  auto a372 = a371.unsqueeze(1).squeeze(1);
  auto a373 = a372.unsqueeze(1).squeeze(1);
  auto a374 = a373.unsqueeze(1).squeeze(1);
  auto a375 = a374.unsqueeze(1).squeeze(1);
  auto a376 = a375.unsqueeze(1).squeeze(1);
  auto a377 = a376.unsqueeze(1).squeeze(1);
  auto a378 = a377.unsqueeze(1).squeeze(1);
  auto a379 = a378.unsqueeze(1).squeeze(1);
  auto a380 = a379.unsqueeze(1).squeeze(1);
  auto a381 = a380.unsqueeze(1).squeeze(1);
  auto a382 = a381.unsqueeze(1).squeeze(1);
  auto a383 = a382.unsqueeze(1).squeeze(1);
  auto a384 = a383.unsqueeze(1).squeeze(1);
  auto a385 = a384.unsqueeze(1).squeeze(1);
  auto a386 = a385.unsqueeze(1).squeeze(1);
  auto a387 = a386.unsqueeze(1).squeeze(1);
  auto a388 = a387.unsqueeze(1).squeeze(1);
  auto a389 = a388.unsqueeze(1).squeeze(1);
  auto a390 = a389.unsqueeze(1).squeeze(1);
  auto a391 = a390.unsqueeze(1).squeeze(1);
  auto a392 = a391.unsqueeze(1).squeeze(1);
  auto a393 = a392.unsqueeze(1).squeeze(1);
  auto a394 = a393.unsqueeze(1).squeeze(1);
  auto a395 = a394.unsqueeze(1).squeeze(1);
  auto a396 = a395.unsqueeze(1).squeeze(1);
  auto a397 = a396.unsqueeze(1).squeeze(1);
  auto a398 = a397.unsqueeze(1).squeeze(1);
  auto a399 = a398.unsqueeze(1).squeeze(1);
  return torch::mse_loss(a399.unsqueeze(1), y.view({-1}));
}

