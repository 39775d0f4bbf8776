// harm/common.h - what every buggy/fixed pair shares: a fixed seed, the steps,
// the loss curve as CSV, and one result line.
//
// A pair is two programs, buggy.cpp and fixed.cpp, that differ only in the lines
// one torch-* check reports. Each is a file of its own that torch-tidy analyses
// alone; scripts/harm.sh compiles all of them into one executable (LibTorch's
// headers are parsed once) and runs each as
//
//   harm-programs <check>/<buggy|fixed> CURVE.csv [STEPS]
//
// which writes `step,loss` rows to CURVE.csv and prints one line:
//
//   final,<metric>,<value>         the run finished; the metric on held-out data
//   error,<step>,<message>         LibTorch threw at that step
//
// A program is written as
//
//   HARM_PROGRAM(run, 300) {       // 300 steps unless STEPS is given
//     ... for (int step = 0; step < run.steps(); ++step) { ...; run.loss(step, loss); }
//     return run.finish("test MSE", value);
//   }
#pragma once

#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <map>
#include <string>

#include <unistd.h>

namespace harm {

class Run {
public:
  Run(int argc, char **argv, int default_steps)
      : curve_(argc > 1 ? argv[1] : "/dev/null"),
        steps_(argc > 2 ? std::atoi(argv[2]) : default_steps) {
    torch::manual_seed(0);
    torch::set_num_threads(1);
  }

  int steps() const { return steps_; }

  // Records the loss of one step; the step is also where a later error is
  // reported.
  void loss(int step, const torch::Tensor &value) {
    step_ = step;
    header("loss");
    curve_ << step << ',' << value.item<double>() << '\n';
  }
  // Records the resident memory (MB) after one step instead, for a pair whose
  // harm is memory; the curve's column says which (plotted as such).
  void memory(int step, double megabytes) {
    step_ = step;
    header("resident memory (MB)");
    curve_ << step << ',' << megabytes << '\n';
  }
  void at(int step) { step_ = step; }

  int finish(const char *metric, double value) {
    std::printf("final,%s,%.6g\n", metric, value);
    return 0;
  }

  int fail(const std::exception &error) {
    // The first sentence of LibTorch's message.
    std::string what = error.what();
    what = what.substr(0, what.find('\n'));
    std::size_t stop = what.find(". ");
    if (stop != std::string::npos)
      what = what.substr(0, stop + 1);
    std::printf("error,%d,%s\n", step_, what.c_str());
    return 0;
  }

private:
  void header(const char *column) {
    if (!header_)
      curve_ << "step," << column << '\n';
    header_ = true;
  }

  std::ofstream curve_;
  bool header_ = false;
  int steps_;
  int step_ = 0;
};

using Body = int (*)(Run &);
struct Program {
  Body body;
  int default_steps;
};

// Every program compiled in, by name: "<check>/buggy" or "<check>/fixed".
inline std::map<std::string, Program> &programs() {
  static std::map<std::string, Program> all;
  return all;
}

// The name of a program from its file: ".../harm/<check>/<variant>.cpp".
inline std::string nameOf(const std::string &file) {
  std::string path = file.substr(0, file.rfind('.'));
  std::size_t variant = path.rfind('/');
  std::size_t check = path.rfind('/', variant - 1);
  return path.substr(check + 1);
}

struct Registrar {
  Registrar(const char *file, Body body, int default_steps) {
    programs()[nameOf(file)] = {body, default_steps};
  }
};

// harm-programs NAME CURVE.csv [STEPS]: runs one program, turning an exception
// into the `error` line.
inline int dispatch(int argc, char **argv) {
  if (argc < 2 || !programs().count(argv[1])) {
    std::fprintf(stderr, "usage: harm-programs NAME CURVE.csv [STEPS]; NAME:");
    for (const auto &entry : programs())
      std::fprintf(stderr, " %s", entry.first.c_str());
    std::fprintf(stderr, "\n");
    return 2;
  }
  const Program &program = programs()[argv[1]];
  Run run(argc - 1, argv + 1, program.default_steps);
  try {
    return program.body(run);
  } catch (const std::exception &error) {
    return run.fail(error);
  }
}

// The resident memory of this process in MB (Linux: /proc/self/statm).
inline double residentMB() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * (sysconf(_SC_PAGESIZE) / 1048576.0);
}

// The task's hidden weights: the same for the training and the test data.
inline torch::Tensor task(int d) {
  torch::manual_seed(1234);
  return torch::randn({d, 1}) / std::sqrt(static_cast<double>(d));
}

// A regression task: y = sin(2 X w) + noise, X of `n` rows and `d` features
// drawn with `seed` (one seed for the training data, another for the test data).
struct Data {
  torch::Tensor x, y;
};
inline Data regression(int n, int d, int seed) {
  auto w = task(d);
  torch::manual_seed(seed);
  auto x = torch::randn({n, d});
  auto y = torch::sin(2 * x.matmul(w)) + 0.05 * torch::randn({n, 1});
  return {x, y};
}

// A two-class task: the label is whether a random linear form of x is positive.
inline Data classification(int n, int d, int seed) {
  auto w = task(d);
  torch::manual_seed(seed);
  auto x = torch::randn({n, d});
  auto y = (x.matmul(w) > 0).to(torch::kFloat);
  return {x, y};
}

// A `k`-class task: the label is the largest of k random linear forms of x.
inline Data multiclass(int n, int d, int k, int seed) {
  torch::manual_seed(1234);
  auto w = torch::randn({d, k});
  torch::manual_seed(seed);
  auto x = torch::randn({n, d});
  return {x, x.matmul(w).argmax(1)};
}

} // namespace harm

#define HARM_CONCAT_(a, b) a##b
#define HARM_CONCAT(a, b) HARM_CONCAT_(a, b)
#define HARM_PROGRAM_(run, steps, id)                                          \
  static int HARM_CONCAT(harm_body_, id)(harm::Run &);                         \
  static const harm::Registrar HARM_CONCAT(harm_registrar_, id)(               \
      __FILE__, HARM_CONCAT(harm_body_, id), steps);                           \
  static int HARM_CONCAT(harm_body_, id)(harm::Run & run)
#define HARM_PROGRAM(run, steps) HARM_PROGRAM_(run, steps, __COUNTER__)
