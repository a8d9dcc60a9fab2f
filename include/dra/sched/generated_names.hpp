// The names Kubernetes gives the ResourceClaims its resourceclaim controller makes from templates: the controller's
// generateName (`<pod>-<entry>-`, shortened to fit), then the API server's five characters — drawn here from a hash
// of what the claim is for rather than at random, so that a run repeats.
#pragma once

#include <dra/model/common.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace dra::sched {

// The annotation the resourceclaim controller puts on each claim it makes: the pod's (or PodGroup's)
// spec.resourceClaims entry the claim is for.
inline constexpr std::string_view pod_claim_name_annotation = "resource.kubernetes.io/pod-claim-name";

// The resourceclaim controller's generateName for entry `entry` of `owner` (a pod or a PodGroup): `<owner>-<entry>-`,
// or, past 57 characters (63 less a hyphen and the suffix), each part cut in proportion to its length, joined by a
// hyphen, with no hyphen at the end.
[[nodiscard]] inline std::string claim_generate_name(std::string_view owner, std::string_view entry) {
  constexpr std::size_t max_base = 57;
  std::string name = std::string(owner) + "-" + std::string(entry) + "-";
  if (name.size() <= max_base) return name;
  const std::size_t full = name.size();
  return std::string(owner.substr(0, owner.size() * max_base / full)) + "-" +
         std::string(entry.substr(0, entry.size() * max_base / full));
}

// FNV-1a of `bytes`, continuing from `hash`: a hash that is the same on every machine and run, for names and uids
// dra makes up.
[[nodiscard]] constexpr std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash = 14695981039346656037ULL) {
  for (const char c : bytes) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return hash;
}

// The name the API server makes from `generate_name`: cut to 58 characters, then five of its random-suffix alphabet,
// here chosen by a hash of `seed` (what the object is for) and `attempt` (the API server draws again when the name
// is taken: so does the caller, with the next attempt).
[[nodiscard]] inline std::string generated_name(std::string_view generate_name, std::string_view seed,
                                                std::uint32_t attempt = 0) {
  constexpr std::string_view alphabet = "bcdfghjklmnpqrstvwxz2456789";  // the API server's: no vowels, no 0, 1 or 3
  constexpr std::size_t max_prefix = 58;
  std::uint64_t hash = fnv1a("/" + std::to_string(attempt), fnv1a(seed));
  std::string name(generate_name.substr(0, max_prefix));
  for (int i = 0; i < 5; ++i) {
    name.push_back(alphabet[hash % alphabet.size()]);
    hash /= alphabet.size();
  }
  return name;
}

// The name of the claim the resourceclaim controller makes for entry `entry` of `owner` (a pod or a PodGroup), on
// the API server's `attempt`-th draw (from 0; the next when the name is taken).
[[nodiscard]] inline std::string generated_claim_name(const model::object_meta& owner, std::string_view entry,
                                                      std::uint32_t attempt = 0) {
  const std::string seed = model::namespaced_name(owner) + "/" + std::string(owner.uid) + "/" + std::string(entry);
  return generated_name(claim_generate_name(owner.name, entry), seed, attempt);
}

}  // namespace dra::sched
