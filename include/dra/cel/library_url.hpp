// Kubernetes' URL library: url, isURL, getScheme, getHost, getHostname, getPort, getEscapedPath, getQuery.
#pragma once

#include <dra/cel/detail/library_support.hpp>
#include <dra/cel/detail/formats_and_urls.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::cel {

// Kubernetes' URL library.
inline void add_url_library(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  // Kubernetes' URL library: url() accepts what Go's url.ParseRequestURI accepts.
  const type T_url = type::opaque("kubernetes.URL");
  r.global("url", "string_to_url", {T_string()}, T_url, [](args_t a, call_context&) -> value {
    if (auto problems = detail::request_uri(a[0].as_text()); !problems.empty())
      return value::error(dra::concat("URL parse error during conversion from string: ", problems.front()));
    auto parts = detail::split_url(a[0].as_text());
    return url_value{std::make_shared<const url_parts>(
        url_parts{std::move(parts.scheme), std::move(parts.host), std::move(parts.path), std::move(parts.raw_query)})};
  });
  r.global("isURL", "is_url_string", {T_string()}, T_bool(), [](args_t a, call_context&) -> value {
    return detail::request_uri(a[0].as_text()).empty();
  });
  r.member("getScheme", "url_get_scheme", {T_url}, T_string(), [](args_t a, call_context&) -> value { return value::string(a[0].as<url_value>().parts->scheme); });
  r.member("getHost", "url_get_host", {T_url}, T_string(), [](args_t a, call_context&) -> value { return value::string(a[0].as<url_value>().parts->host); });
  r.member("getHostname", "url_get_hostname", {T_url}, T_string(), [](args_t a, call_context&) -> value {
    std::string_view host = a[0].as<url_value>().parts->host;
    if (!host.empty() && host.front() == '[') return value::string(std::string(host.substr(1, host.find(']') - 1)));
    return value::string(std::string(host.substr(0, host.rfind(':'))));
  });
  r.member("getPort", "url_get_port", {T_url}, T_string(), [](args_t a, call_context&) -> value {
    std::string_view host = a[0].as<url_value>().parts->host;
    const auto colon = host.rfind(':');
    if (colon == std::string_view::npos || host.find(']', colon) != std::string_view::npos) return value::string("");
    return value::string(std::string(host.substr(colon + 1)));
  });
  r.member("getEscapedPath", "url_get_escaped_path", {T_url}, T_string(), [](args_t a, call_context&) -> value { return value::string(a[0].as<url_value>().parts->path); });
  r.member("getQuery", "url_get_query", {T_url}, type::map(T_string(), type::list(T_string())), [](args_t a, call_context&) -> value {
    // Go's url.Query(): pairs split on '&' (a pair with ';' or a bad escape is dropped), values grouped by key.
    std::vector<std::pair<std::string, std::vector<value>>> groups;
    std::string_view q = a[0].as<url_value>().parts->raw_query;
    while (!q.empty()) {
      const auto amp = q.find('&');
      std::string_view pair = q.substr(0, amp);
      q = amp == std::string_view::npos ? std::string_view{} : q.substr(amp + 1);
      if (pair.empty() || pair.find(';') != std::string_view::npos) continue;
      const auto eq = pair.find('=');
      auto key = detail::query_unescape(pair.substr(0, eq));
      auto val = detail::query_unescape(eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1));
      if (!key || !val) continue;
      auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == *key; });
      if (it == groups.end()) it = groups.insert(groups.end(), {*key, {}});
      it->second.push_back(value::string(std::move(*val)));
    }
    std::vector<std::pair<value, value>> entries;
    for (auto& [k, v] : groups) entries.emplace_back(value::string(k), value::list(std::move(v)));
    return value::map(std::move(entries));
  });
}

}  // namespace dra::cel
