#pragma once
// The convolution layer and the accelerator it runs on (SPEC §2).
// Every size counts elements: one channel of one input pixel, one kernel
// weight, one output value. A pixel is a 2-D position of the *padded* input.

#include <cstdint>
#include <string>
#include <vector>

namespace convoffload {

struct Layer {
    int c_in = 1, h_in = 1, w_in = 1;
    int h_k = 1, w_k = 1;
    int n = 1; // number of kernels = C_out
    int stride_h = 1, stride_w = 1;
    int pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;

    int paddedHeight() const { return h_in + pad_top + pad_bottom; }
    int paddedWidth() const { return w_in + pad_left + pad_right; }
    int hOut() const { return (paddedHeight() - h_k) / stride_h + 1; }
    int wOut() const { return (paddedWidth() - w_k) / stride_w + 1; }
    std::int64_t pixelCount() const { return std::int64_t(paddedHeight()) * paddedWidth(); }
    std::int64_t patchCount() const { return std::int64_t(hOut()) * wOut(); }
    std::int64_t outputCount() const { return patchCount() * n; }
    std::int64_t kernelElements() const { return std::int64_t(c_in) * h_k * w_k; }
    /// MACs for one output value (the paper's nb_op_value).
    std::int64_t opsPerOutput() const { return kernelElements(); }
    bool isPadding(int row, int col) const
    {
        return row < pad_top || row >= pad_top + h_in || col < pad_left || col >= pad_left + w_in;
    }

    /// Every reason this layer cannot be simulated; empty when it is sound.
    /// Messages name the field (e.g. "h_k") so callers can prefix a key path.
    std::vector<std::string> problems() const;

    bool operator==(const Layer &) const = default;
};

struct Hardware {
    std::int64_t mem_size = 1000; // on-chip memory, elements
    std::int64_t nbop_pe = 1000; // MACs per compute
    double t_l = 1.0; // per element loaded
    double t_w = 1.0; // per element written back
    double t_acc = 1.0; // per compute
    std::int64_t dram_size = 100000000;
    int max_loads_per_element = 2; // the paper's reload bound

    std::vector<std::string> problems() const;
    bool operator==(const Hardware &) const = default;
};

enum class WritePolicy {
    NextStep, // outputs of group i are written at step i+1 (the paper's Example)
    AsLateAsPossible // kept on chip until memory runs short, oldest written first
};

struct Options {
    bool kernels_preloaded = false; // kernel loads cost nothing (the paper's ILP)
    WritePolicy write_policy = WritePolicy::NextStep;
    bool padding_in_dram = true; // false: padding is synthesised on chip, never loaded
    bool operator==(const Options &) const = default;
};

std::string toString(WritePolicy policy);

/// Layer + hardware + options: everything the simulator needs besides a strategy.
struct Problem {
    Layer layer;
    Hardware hardware;
    Options options;

    /// The paper's nb_patches_max_S1 = floor(nbop_pe / (C_in·H_K·W_K·N)).
    std::int64_t nbPatchesMax() const;
    /// ceil(|X| / nb_patches_max), 0 when nb_patches_max is 0.
    std::int64_t kMin() const;
    std::int64_t kMax() const { return layer.patchCount(); }
    bool operator==(const Problem &) const = default;
};

} // namespace convoffload
