// The API server's defaults added to claims and templates as they are echoed.
#include <dra/json/defaults.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace {

std::optional<std::string> defaulted(std::string_view json) {
  auto out = dra::json::with_api_server_defaults(json);
  EXPECT_TRUE(out.has_value());
  return out ? *out : std::nullopt;
}

TEST(ApiServerDefaults, RequestGetsModeAndCountInKubernetesKeyOrder) {
  EXPECT_EQ(defaulted(R"({"kind":"ResourceClaim","spec":{"devices":{"requests":[)"
                      R"({"exactly":{"deviceClassName":"c","adminAccess":true},"name":"r"}]}}})"),
            R"({"kind":"ResourceClaim","spec":{"devices":{"requests":[)"
            R"({"exactly":{"deviceClassName":"c","allocationMode":"ExactCount","count":1,"adminAccess":true},"name":"r"}]}}})");
}

TEST(ApiServerDefaults, CountOnlyWithExactCountAndFieldsPresentAreKept) {
  EXPECT_EQ(defaulted(R"({"kind":"ResourceClaim","spec":{"devices":{"requests":[)"
                      R"({"exactly":{"allocationMode":"All"}},{"exactly":{"count":3}}]}}})"),
            R"({"kind":"ResourceClaim","spec":{"devices":{"requests":[)"
            R"({"exactly":{"allocationMode":"All"}},{"exactly":{"allocationMode":"ExactCount","count":3}}]}}})");
}

TEST(ApiServerDefaults, TemplateSubRequestsAndTolerations) {
  EXPECT_EQ(defaulted(R"({"kind":"ResourceClaimTemplate","spec":{"spec":{"devices":{"requests":[{"firstAvailable":[)"
                      R"({"name":"a","tolerations":[{"key":"k","effect":"NoSchedule"}],"allocationMode":"All"}]}]}}}})"),
            R"({"kind":"ResourceClaimTemplate","spec":{"spec":{"devices":{"requests":[{"firstAvailable":[)"
            R"({"name":"a","tolerations":[{"key":"k","operator":"Equal","effect":"NoSchedule"}],"allocationMode":"All"}]}]}}}})");
}

TEST(ApiServerDefaults, V1beta1RequestOnlyWithADeviceClass) {
  EXPECT_EQ(defaulted(R"({"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceClaim","spec":{"devices":{"requests":[)"
                      R"({"name":"a","deviceClassName":"c"},{"name":"b","firstAvailable":[{"name":"x"}]}]}}})"),
            R"({"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceClaim","spec":{"devices":{"requests":[)"
            R"({"name":"a","deviceClassName":"c","allocationMode":"ExactCount","count":1},)"
            R"({"name":"b","firstAvailable":[{"name":"x","allocationMode":"ExactCount","count":1}]}]}}})");
}

TEST(ApiServerDefaults, NothingMissingOrOtherKindsGiveNothing) {
  EXPECT_EQ(defaulted(R"({"kind":"ResourceClaim","spec":{"devices":{"requests":[)"
                      R"({"exactly":{"allocationMode":"ExactCount","count":2,"tolerations":[{"operator":"Exists"}]}}]}}})"),
            std::nullopt);
  EXPECT_EQ(defaulted(R"({"kind":"DeviceClass","spec":{"devices":{"requests":[{"exactly":{}}]}}})"), std::nullopt);
}

TEST(ApiServerDefaults, UnreadableTextIsAnError) {
  EXPECT_FALSE(dra::json::with_api_server_defaults("{").has_value());
}

}  // namespace
