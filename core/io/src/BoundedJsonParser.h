// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// nlohmann's DOM builder behind a SAX handler that bounds what a file can
// make the loader build (docs/user/bad-input.md, "JSON limits"): nesting
// depth, values in all, members of one object. The callback parser it
// replaces scanned an array for discarded values after every object in it:
// 400 000 empty objects took minutes. This one is linear.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace convoffload {

constexpr std::size_t kMaxJsonDepth = 64; // project files nest 5 levels
constexpr std::int64_t kMaxJsonValues = std::int64_t(1) << 25; // every value, containers included
constexpr std::size_t kMaxJsonObjectMembers = 4096; // an ordered object finds keys by scanning

template <typename Json> class BoundedJsonParser : public nlohmann::detail::json_sax_dom_parser<Json> {
    using Base = nlohmann::detail::json_sax_dom_parser<Json>;

public:
    /// `onLimit(what)` throws: the caller knows where the parse is.
    using Event = std::function<void(typename Json::parse_event_t, const std::string &key)>;
    BoundedJsonParser(Json &result, Event event, std::function<void(const std::string &)> onLimit)
        : Base(result, true)
        , m_event(std::move(event))
        , m_onLimit(std::move(onLimit))
    {
    }

    bool null() { return value() && Base::null(); }
    bool boolean(bool v) { return value() && Base::boolean(v); }
    bool number_integer(typename Json::number_integer_t v) { return value() && Base::number_integer(v); }
    bool number_unsigned(typename Json::number_unsigned_t v) { return value() && Base::number_unsigned(v); }
    bool number_float(typename Json::number_float_t v, const typename Json::string_t &s)
    {
        return value() && Base::number_float(v, s);
    }
    bool string(typename Json::string_t &v) { return value() && Base::string(v); }
    bool binary(typename Json::binary_t &v) { return value() && Base::binary(v); }

    bool start_object(std::size_t n)
    {
        open(Json::parse_event_t::object_start);
        return Base::start_object(n);
    }
    bool key(typename Json::string_t &k)
    {
        if (++m_members.back() > kMaxJsonObjectMembers)
            m_onLimit("more than " + std::to_string(kMaxJsonObjectMembers) + " members in one object");
        m_event(Json::parse_event_t::key, k);
        return Base::key(k);
    }
    bool end_object()
    {
        close(Json::parse_event_t::object_end);
        return Base::end_object();
    }
    bool start_array(std::size_t n)
    {
        open(Json::parse_event_t::array_start);
        return Base::start_array(n);
    }
    bool end_array()
    {
        close(Json::parse_event_t::array_end);
        return Base::end_array();
    }

private:
    bool value()
    {
        count();
        m_event(Json::parse_event_t::value, {});
        return true;
    }
    void count()
    {
        if (++m_values > kMaxJsonValues)
            m_onLimit("more than " + std::to_string(kMaxJsonValues) + " values in the file");
    }
    void open(typename Json::parse_event_t event)
    {
        count();
        if (m_members.size() >= kMaxJsonDepth)
            m_onLimit("arrays and objects nested more than " + std::to_string(kMaxJsonDepth) + " deep");
        m_members.push_back(0);
        m_event(event, {});
    }
    void close(typename Json::parse_event_t event)
    {
        m_members.pop_back();
        m_event(event, {});
    }

    Event m_event;
    std::function<void(const std::string &)> m_onLimit;
    std::vector<std::size_t> m_members; // per open container: its members so far
    std::int64_t m_values = 0;
};

} // namespace convoffload
