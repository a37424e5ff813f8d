// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A private directory (mode 0700, mkdtemp) for the files a worker process
// reads and writes: the ILP's model for CBC, the ONNX model for its shape
// inference. Removed with everything in it when it goes out of scope.
#include <filesystem>
#include <string>

namespace convoffload {

class TempDir {
public:
    /// A new directory `prefix`XXXXXX in `parent`, or in the system's
    /// temporary directory when `parent` is empty.
    TempDir(const std::string &parent, const std::string &prefix);
    ~TempDir();
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;

    /// Empty when the directory could not be made; error() says why.
    const std::filesystem::path &path() const { return m_path; }
    const std::string &error() const { return m_error; }

private:
    std::filesystem::path m_path;
    std::string m_error;
};

} // namespace convoffload
