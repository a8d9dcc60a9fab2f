// Writes a JSON scenario file as YAML, as `kubectl get -o yaml` prints one, with dra's own YAML writer, for
// bench/cluster_scale.sh's YAML rows. Usage: to_yaml IN.json OUT.yaml
#include <dra/json/yaml.hpp>

#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: to_yaml IN.json OUT.yaml\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto yaml = dra::json::to_yaml(json);
  if (!in || !yaml) {
    std::cerr << "to_yaml: " << (yaml ? std::string("cannot read ") + argv[1] : yaml.error().to_string()) << "\n";
    return 1;
  }
  std::ofstream out(argv[2], std::ios::binary);
  if (!(out << *yaml) || !out.flush()) {
    std::cerr << "to_yaml: cannot write " << argv[2] << "\n";
    return 1;
  }
  return 0;
}
