// Tests of kube-scheduler's feature gates as dra's switches: releases' defaults and --feature-gates' syntax and checks.
#include <dra/alloc/feature_gates.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace {

using dra::alloc::features;

dra::result<features> gated(std::string_view gates, std::string_view release = "1.37",
                            std::optional<features> base = std::nullopt, std::vector<std::string>* notes = nullptr) {
  std::vector<std::string> ignored;
  return dra::alloc::with_feature_gates(gates, release, base, notes != nullptr ? *notes : ignored);
}

TEST(FeatureGates, EachReleaseRunsWithItsDefaults) {
  // 1.34 and 1.35: AdminAccess and PrioritizedList beta and on; DeviceBindingConditions alpha, so the binding
  // switch is off although ResourceClaimDeviceStatus is on.
  for (std::string_view release : {"1.34", "1.35"}) {
    features expected = features::none();
    expected.admin_access = true;
    expected.prioritized_list = true;
    EXPECT_EQ(dra::alloc::release_features(release).value(), expected) << release;
  }
  // 1.36 turns the beta ones on; 1.37's new gates are alpha, off.
  features beta = features::none();
  beta.admin_access = beta.prioritized_list = beta.consumable_capacity = beta.device_binding_and_status = true;
  beta.device_taints = beta.partitionable_devices = true;
  EXPECT_EQ(dra::alloc::release_features("1.36").value(), beta);
  EXPECT_EQ(dra::alloc::release_features("1.37").value(), beta);
  EXPECT_FALSE(dra::alloc::release_features("1.33").has_value());
}

TEST(FeatureGates, ReadsKubeSchedulersSyntax) {
  const auto on = gated(" DRAListTypeAttributes = true,,kube:DRADeviceTaints=F,DRADeviceTaintRules=0,DRAConsumableCapacity=0");
  ASSERT_TRUE(on.has_value()) << on.error().to_string();
  EXPECT_TRUE(on->list_type_attributes);
  EXPECT_FALSE(on->device_taints);
  EXPECT_FALSE(on->consumable_capacity);
  EXPECT_TRUE(on->partitionable_devices);  // left at 1.37's default
}

TEST(FeatureGates, ASwitchTwoGatesFeedIsOnOnlyWithBoth) {
  EXPECT_FALSE(dra::alloc::release_features("1.35")->device_binding_and_status);
  EXPECT_TRUE(gated("DRADeviceBindingConditions=true", "1.35")->device_binding_and_status);  // status is on by default
  EXPECT_FALSE(gated("DRAResourceClaimDeviceStatus=false,DRADeviceBindingConditions=false", "1.36")
                   ->device_binding_and_status);
  const auto without_status = gated("DRAResourceClaimDeviceStatus=false", "1.36");
  ASSERT_FALSE(without_status.has_value());
  EXPECT_EQ(without_status.error().message,
            "DRADeviceBindingConditions is enabled, but depends on features that are disabled: [DRAResourceClaimDeviceStatus]");
}

TEST(FeatureGates, AllAlphaAndAllBetaYieldToGatesNamedExplicitly) {
  const auto all_alpha = gated("DRADerivedAttributes=false,AllAlpha=true");
  ASSERT_TRUE(all_alpha.has_value()) << all_alpha.error().to_string();
  EXPECT_FALSE(all_alpha->derived_attributes);
  EXPECT_TRUE(all_alpha->device_compatibility_groups);
  EXPECT_TRUE(all_alpha->optional_node_operations);
  EXPECT_TRUE(all_alpha->node_allocatable_resources);
  const auto no_beta = gated("AllBeta=false");
  EXPECT_FALSE(no_beta->consumable_capacity);
  EXPECT_FALSE(no_beta->partitionable_devices);
  EXPECT_TRUE(no_beta->device_taints);  // GA in 1.37
}

TEST(FeatureGates, RefusesWhatKubeSchedulerRefuses) {
  const std::pair<std::string_view, std::string_view> cases[] = {
      {"DRAAdminAccess", "missing bool value for DRAAdminAccess"},
      {"DRAAdminAccess=yes", "invalid value of DRAAdminAccess=yes, err: strconv.ParseBool: parsing \"yes\": invalid syntax"},
      {"DRAAdminAccess=false", "cannot set feature gate DRAAdminAccess to false, feature is locked to true"},
      {"DRAConsumableCapacty=true", "unrecognized feature gate: DRAConsumableCapacty"},
      {"DRADeviceTaints=false,DRADeviceTaintRules=true",
       "DRADeviceTaintRules is enabled, but depends on features that are disabled: [DRADeviceTaints]"},
  };
  for (const auto& [gates, message] : cases) {
    const auto refused = gated(gates);
    ASSERT_FALSE(refused.has_value()) << gates;
    EXPECT_EQ(refused.error().message, message);
    EXPECT_EQ(refused.error().object, "--feature-gates");
  }
  const auto too_early = gated("DRADerivedAttributes=true", "1.36");
  ASSERT_FALSE(too_early.has_value());
  EXPECT_EQ(too_early.error().message,
            "cannot set feature gate DRADerivedAttributes to true, feature is PreAlpha at emulated version 1.36");
}

// KEP-5690's gate, planned beta and off in 1.37: device-aware preemption only when asked for, on 1.37 or on top of
// `all`, whose switches otherwise stay.
TEST(FeatureGates, DevicePreemptionIsOffUnlessTheGateTurnsItOn) {
  EXPECT_FALSE(dra::alloc::release_features("1.37")->device_preemption);
  EXPECT_FALSE(features::all().device_preemption);
  EXPECT_TRUE(gated("DRAPreemption=true")->device_preemption);
  EXPECT_TRUE(gated("AllBeta=true")->device_preemption);
  const auto on_all = gated("DRAPreemption=true", "1.37", features::all());
  ASSERT_TRUE(on_all.has_value()) << on_all.error().to_string();
  features expected = features::all();
  expected.device_preemption = true;
  EXPECT_EQ(*on_all, expected);
  const auto too_early = gated("DRAPreemption=true", "1.36");
  ASSERT_FALSE(too_early.has_value());
  EXPECT_EQ(too_early.error().message,
            "cannot set feature gate DRAPreemption to true, feature is PreAlpha at emulated version 1.36");
  EXPECT_TRUE(features::parse("Preemption")->device_preemption);
  EXPECT_FALSE(features::parse("all")->device_preemption);
}

// A gate dra does not model is noted when it is not where dra runs it; a gate outside DRA and scheduling is ignored
// with a note, so that a kube-scheduler's whole --feature-gates can be passed as it is.
TEST(FeatureGates, NotesWhatDraDoesNotModel) {
  std::vector<std::string> notes;
  const auto release = gated("", "1.35", std::nullopt, &notes);
  ASSERT_TRUE(release.has_value());
  EXPECT_EQ(notes, (std::vector<std::string>{
                       "DRAExtendedResource is false here, which dra does not model: it runs as with DRAExtendedResource=true",
                       "DRADeviceTaintRules is false here, which dra does not model: it runs as with DRADeviceTaintRules=true",
                       "GenericWorkload is false here, which dra does not model: it runs as with GenericWorkload=true",
                       "GangScheduling is false here, which dra does not model: it runs as with GangScheduling=true"}));
  notes.clear();
  const auto other = gated("InPlacePodVerticalScaling=true,GenericWorkload=true", "1.37", std::nullopt, &notes);
  ASSERT_TRUE(other.has_value());
  EXPECT_EQ(notes, (std::vector<std::string>{"--feature-gates: InPlacePodVerticalScaling changes nothing dra models; ignored"}));
}

// On top of --features' own list, the gates start from that list rather than a release's defaults (and its
// dependencies are the list's business: the gates dra does not model stay as they are).
TEST(FeatureGates, StartFromAGivenSetOfSwitches) {
  const auto from_none = gated("DRAPrioritizedList=true", "1.37", features::none());
  ASSERT_TRUE(from_none.has_value()) << from_none.error().to_string();
  features expected = features::none();
  expected.prioritized_list = true;
  EXPECT_EQ(*from_none, expected);
  EXPECT_EQ(gated("", "1.37", features::all()).value(), features::all());
}

}  // namespace
