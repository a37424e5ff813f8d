#include "convoffload/model/Hardware.h"

#include <cmath>

namespace convoffload {

namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

} // namespace

std::vector<std::string> Hardware::problems() const
{
    std::vector<std::string> out;
    const auto positive = [&](const char *name, std::int64_t value) {
        if (value < 1)
            out.push_back(std::string(name) + ": must be at least 1, got " + str(value));
    };
    const auto duration = [&](const char *name, double value) {
        if (!std::isfinite(value) || value < 0)
            out.push_back(std::string(name) + ": must be a finite number >= 0, got " + std::to_string(value));
    };
    positive("mem_size", mem_size);
    positive("nbop_pe", nbop_pe);
    duration("t_l", t_l);
    duration("t_w", t_w);
    duration("t_acc", t_acc);
    positive("dram_size", dram_size);
    positive("max_loads_per_element", max_loads_per_element);
    return out;
}

} // namespace convoffload
