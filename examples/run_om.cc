// run_om: runs a compiled model (.om) on .npy inputs and writes each output as out<i>.npy.
//
//   run_om MODEL.om OUT_DIR [INPUT.npy ...]
//
// It links the runtime alone (graph, operators, model, engine API): a deployment that only runs
// models compiled elsewhere carries no compiler.
#include <iostream>
#include <string>
#include <vector>

#include "ge/runtime/loaded_model.h"
#include "ge/runtime/npy.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: run_om MODEL.om OUT_DIR [INPUT.npy ...]\n";
    return 2;
  }
  auto model = ge::LoadedModel::LoadFromFile(argv[1]);
  if (!model.ok()) {
    std::cerr << "run_om: " << model.status().message() << "\n";
    return 1;
  }
  std::vector<ge::GeTensor> inputs;
  for (int i = 3; i < argc; ++i) {
    auto input = ge::ReadNpy(argv[i]);
    if (!input.ok()) {
      std::cerr << "run_om: " << input.status().message() << "\n";
      return 1;
    }
    inputs.push_back(std::move(input).value());
  }
  auto outputs = (*model)->Run(inputs);
  if (!outputs.ok()) {
    std::cerr << "run_om: " << outputs.status().message() << "\n";
    return 1;
  }
  for (size_t i = 0; i < outputs->size(); ++i) {
    const std::string path = std::string(argv[2]) + "/out" + std::to_string(i) + ".npy";
    ge::Status written = ge::WriteNpy(path, (*outputs)[i]);
    if (!written.ok()) {
      std::cerr << "run_om: " << written.message() << "\n";
      return 1;
    }
    std::cout << path << "\n";
  }
  return 0;
}
