// RUN: %check_torch_tidy %s torch-graph-break %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-graph-break %t.real -- %real_flags

#include <torch/torch.h>

#include <cstdio>
#include <tuple>
#include <vector>

namespace F = torch::nn::functional;

struct NetImpl : torch::nn::Module {
  NetImpl()
      : fc(register_module("fc", torch::nn::Linear(8, 4))),
        aux(register_module("aux", torch::nn::Linear(8, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::Tensor aux_head(torch::Tensor x) { return aux->forward(x); }
  torch::nn::Linear fc, aux;
};
TORCH_MODULE(Net);

using Loader = decltype(torch::data::make_data_loader(
    torch::data::datasets::MNIST("data").map(torch::data::transforms::Stack<>()), 64));

// ---------------------------------------------------------------- positives

// P1: the loss turned into a number and back: a new leaf, backward() throws.
void p1_item_rewrapped(Net &model, Loader &loader, torch::optim::SGD &opt) {
  for (auto &batch : *loader) {
    opt.zero_grad();
    auto output = model->forward(batch.data);
    float value = F::nll_loss(output, batch.target).item<float>();
    auto loss = torch::tensor(value);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: the tensor given to the backward pass is cut from the graph of the model output 'model->forward(batch.data)' by 'item()' re-wrapped with 'torch::tensor': the backward pass throws ('element 0 of tensors does not require grad') and the model never learns from it; compute it with tensor operations on the model output, not on a copy of its values [torch-graph-break]
    // CHECK-MESSAGES: :[[@LINE-4]]:53: note: the graph is cut here
    // CHECK-MESSAGES: :[[@LINE-4]]:17: note: the values are made a new tensor here, with no autograd history
    // CHECK-MESSAGES: :[[@LINE-7]]:26: note: the model output comes from this forward pass
    opt.step();
  }
}

// P2: the output detached before the loss.
void p2_detach(Net &model, Loader &loader, torch::optim::Adam &opt) {
  for (auto &batch : *loader) {
    opt.zero_grad();
    auto output = model->forward(batch.data).detach();
    auto loss = torch::nll_loss(output, batch.target);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: the tensor given to the backward pass is cut from the graph of the model output 'model->forward(batch.data)' by 'detach()': the backward pass throws {{.*}}; compute it from the model output itself, without the detached copy [torch-graph-break]
    opt.step();
  }
}

// P3: `data()`, and a holder called as a function.
void p3_data(Net &model, Loader &loader, torch::optim::SGD &opt) {
  auto criterion = torch::nn::CrossEntropyLoss();
  for (auto &batch : *loader) {
    auto loss = criterion(model(batch.data).data(), batch.target);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: {{.*}} model output 'model(batch.data)' by 'data()': the backward pass throws {{.*}} [torch-graph-break]
    opt.step();
  }
}

// P4: a new tensor over the output's memory.
void p4_from_blob(Net &model, Loader &loader, torch::optim::SGD &opt) {
  for (auto &batch : *loader) {
    auto out = model->forward(batch.data);
    auto view = torch::from_blob(out.data_ptr<float>(), {64, 4});
    torch::nll_loss(view, batch.target).backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: {{.*}} model output 'model->forward(batch.data)' by 'torch::from_blob' over its 'data_ptr()': the backward pass throws {{.*}} [torch-graph-break]
    opt.step();
  }
}

// P5: class indices as the prediction of a regression loss.
void p5_argmax(Net &model, Loader &loader, torch::optim::SGD &opt) {
  for (auto &batch : *loader) {
    auto pred = model->forward(batch.data).argmax(1).to(torch::kFloat);
    auto loss = torch::mse_loss(pred, batch.target.to(torch::kFloat));
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: {{.*}} by 'argmax', which has no gradient: the backward pass throws {{.*}}; compute it from a differentiable value {{.*}} [torch-graph-break]
    opt.step();
  }
}

// P6: a comparison and an integer cast.
void p6_compare_cast(Net &model, Loader &loader, torch::optim::SGD &opt) {
  for (auto &batch : *loader) {
    auto out = model->forward(batch.data);
    auto hits = (out > 0.5).to(torch::kFloat);
    torch::mse_loss(hits, batch.target).backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: {{.*}} by the comparison '>', which has no gradient{{.*}} [torch-graph-break]
    auto counts = out.to(torch::kLong).to(torch::kFloat);
    torch::mse_loss(counts, batch.target).backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: {{.*}} by a cast to an integer type, which has no gradient{{.*}} [torch-graph-break]
    opt.step();
  }
}

// P7: rounding keeps the graph, but every gradient through it is zero.
void p7_round(Net &model, Loader &loader, torch::optim::SGD &opt) {
  for (auto &batch : *loader) {
    auto out = model->forward(batch.data).round();
    auto loss = torch::mse_loss(out, batch.target);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: {{.*}} by 'round', whose gradient is zero: every gradient it sends is zero and the model never learns from it; {{.*}} [torch-graph-break]
    opt.step();
  }
}

// P8: the loss computed by a helper; the cut is in the helper.
torch::Tensor compute_loss(Net &model, torch::Tensor data, torch::Tensor target) {
  auto output = model->forward(data);
  return torch::nll_loss(output.detach(), target);
}
void p8_helper(Net &model, Loader &loader, torch::optim::SGD &opt) {
  for (auto &batch : *loader) {
    auto loss = compute_loss(model, batch.data, batch.target);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: {{.*}} model output 'model->forward(data)' by 'detach()'{{.*}} [torch-graph-break]
    // CHECK-MESSAGES: :[[@LINE-7]]:33: note: the graph is cut here
    // CHECK-MESSAGES: :[[@LINE-9]]:24: note: the model output comes from this forward pass, reached through 'compute_loss'
    opt.step();
  }
}

// P9: one term of the loss, an auxiliary head's, goes through item(): the
// loss trains the main head and the auxiliary head never learns.
class Trainer {
public:
  explicit Trainer(Net model) : model_(model), opt_(model->parameters(), 0.1) {}
  void fit(Loader &loader) {
    for (auto &batch : *loader) {
      opt_.zero_grad();
      auto logits = model_->forward(batch.data);
      auto aux = model_->aux_head(batch.data);
      float aux_loss = torch::mse_loss(aux, batch.data.mean()).item<float>();
      // CHECK-MESSAGES: :[[@LINE-1]]:64: warning: a term of the loss is cut from the graph of the model output 'aux->forward(x)' by 'item()' re-wrapped with 'torch::tensor': training runs, but no gradient flows through this term, so what only it would train never learns; compute it with tensor operations on the model output, not on a copy of its values [torch-graph-break]
      auto loss = torch::nll_loss(logits, batch.target) + torch::tensor(0.1f * aux_loss);
      // CHECK-MESSAGES: :[[@LINE-1]]:59: note: the values are made a new tensor here, with no autograd history
      // CHECK-MESSAGES: :[[@LINE-126]]:57: note: the model output comes from this forward pass, reached through 'aux_head'
      loss.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:12: note: the loss reaches the backward pass here
      opt_.step();
    }
  }

private:
  Net model_;
  torch::optim::SGD opt_;
};

// P10: a term added with `+=`, detached, of the model the optimizer steps.
void p10_compound(Net &model, Loader &loader) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (auto &batch : *loader) {
    auto main = model->forward(batch.data);
    auto loss = torch::nll_loss(main, batch.target);
    auto reg = model->aux_head(batch.data).pow(2).mean();
    loss += 0.01 * reg.detach();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: a term of the loss is cut from the graph of the model output 'aux->forward(x)' by 'detach()'{{.*}} [torch-graph-break]
    loss.backward();
    opt.step();
  }
}

// P11: torch::autograd::backward and a lambda.
void p11_autograd_lambda(Net &model, Loader &loader, torch::optim::SGD &opt) {
  auto step = [&](torch::Tensor x, torch::Tensor y) {
    auto loss = torch::mse_loss(model->forward(x).sign(), y);
    torch::autograd::backward({loss});
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} by 'sign', whose gradient is zero{{.*}} [torch-graph-break]
    opt.step();
  };
  for (auto &batch : *loader)
    step(batch.data, batch.target);
}

// P12: the forward pass run under no_grad.
void p12_no_grad(Net &model, Loader &loader, torch::optim::SGD &opt) {
  for (auto &batch : *loader) {
    torch::Tensor output;
    {
      torch::NoGradGuard guard;
      output = model->forward(batch.data);
    }
    auto loss = torch::nll_loss(output, batch.target);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: {{.*}} by running it while autograd does not record: the backward pass throws {{.*}}; run the forward pass outside the no-grad scope [torch-graph-break]
    opt.step();
  }
}

// ---------------------------------------------------------------- negatives

// N1: DQN: the target network's output is detached, the policy's is not.
void n1_dqn(Net &policy, Net &target, torch::optim::Adam &opt, torch::Tensor s,
            torch::Tensor next, torch::Tensor reward) {
  auto q = policy->forward(s);
  auto next_q = std::get<0>(target->forward(next).max(1)).detach();
  auto expected = reward + 0.99 * next_q;
  auto loss = torch::smooth_l1_loss(q, expected);
  opt.zero_grad();
  loss.backward();
  opt.step();
}

// N2: a bootstrap target from the trained network itself, detached.
void n2_bootstrap(Net &model, torch::optim::Adam &opt, torch::Tensor s,
                  torch::Tensor next, torch::Tensor reward) {
  torch::Tensor target;
  {
    torch::NoGradGuard guard;
    target = reward + 0.99 * std::get<0>(model->forward(next).max(1));
  }
  auto q = model->forward(s).gather(1, model->forward(s).argmax(1, true));
  auto loss = torch::mse_loss(q, target.detach());
  loss.backward();
  opt.step();
}

// N3: distillation: the teacher under no_grad, the student trained.
void n3_distill(Net &student, Net &teacher, Loader &loader, torch::optim::SGD &opt) {
  for (auto &batch : *loader) {
    torch::Tensor soft;
    {
      torch::NoGradGuard guard;
      soft = torch::softmax(teacher->forward(batch.data) / 2.0, 1);
    }
    auto logits = student->forward(batch.data);
    auto kd = torch::kl_div(torch::log_softmax(logits / 2.0, 1), soft.detach());
    auto loss = 0.7 * kd + 0.3 * torch::nll_loss(logits, batch.target);
    loss.backward();
    opt.step();
  }
}

// N4: item() for logging, argmax for accuracy, a detached copy for statistics.
void n4_metrics(Net &model, Loader &loader, torch::optim::SGD &opt) {
  std::vector<torch::Tensor> kept;
  double total = 0;
  for (auto &batch : *loader) {
    auto output = model->forward(batch.data);
    auto loss = torch::nll_loss(output, batch.target);
    loss.backward();
    opt.step();
    total += loss.item<double>();
    auto correct = output.argmax(1).eq(batch.target).sum().item<int64_t>();
    kept.push_back(output.detach());
    std::printf("%f %ld\n", total, (long)correct);
  }
}

// N5: actor-critic: the advantage is a detached factor, not a term.
void n5_actor_critic(Net &actor, Net &critic, torch::optim::Adam &opt,
                     torch::Tensor s, torch::Tensor returns) {
  auto logp = torch::log_softmax(actor->forward(s), 1);
  auto value = critic->forward(s);
  auto advantage = (returns - value).detach();
  auto actor_loss = -(logp * advantage).mean();
  auto critic_loss = (returns - value).pow(2).mean();
  auto loss = actor_loss + 0.5 * critic_loss;
  loss.backward();
  opt.step();
}

// N6: GAN: the discriminator's loss on a detached fake.
void n6_gan(Net &gen, Net &disc, torch::optim::Adam &opt_d, torch::Tensor z,
            torch::Tensor real) {
  auto fake = gen->forward(z);
  auto d_loss = torch::binary_cross_entropy_with_logits(
                    disc->forward(real), torch::ones({64, 4})) +
                torch::binary_cross_entropy_with_logits(
                    disc->forward(fake.detach()), torch::zeros({64, 4}));
  d_loss.backward();
  opt_d.step();
}

// N7: a weight from a number (a factor), and numbers that never came from a
// model re-wrapped.
void n7_weights(Net &model, Loader &loader, torch::optim::SGD &opt, float lambda) {
  for (auto &batch : *loader) {
    auto output = model->forward(batch.data);
    auto scale = torch::tensor(output.abs().mean().item<float>());
    auto loss = torch::nll_loss(output, batch.target) * scale +
                torch::tensor(lambda);
    loss.backward();
    opt.step();
  }
}

// N8: a detached term of a model nobody trains here (a frozen encoder's
// constant), and a parameter-based regulariser next to a detached value.
void n8_untrained(Net &model, Net &frozen, torch::optim::SGD &opt, torch::Tensor x,
                  torch::Tensor y) {
  auto loss = torch::mse_loss(model->forward(x), y) +
              frozen->forward(x).detach().mean();
  loss.backward();
  auto reg = torch::mse_loss(model->forward(x).detach(), y) +
             model->fc->weight.pow(2).sum();
  reg.backward();
  opt.step();
}

// N9: the input is what is optimised (style transfer, adversarial examples):
// a leaf that requires grad carries the graph, the model's output is a target.
void n9_input_optimised(Net &model, torch::Tensor content) {
  auto image = torch::randn({4, 8}, torch::requires_grad());
  auto noise = torch::zeros({4, 8});
  noise.requires_grad_();
  torch::optim::Adam opt({image, noise});
  for (int step = 0; step < 10; ++step) {
    auto target = model->forward(content).detach();
    auto loss = (image + noise - target).pow(2).sum();
    loss.backward();
    opt.step();
  }
}
