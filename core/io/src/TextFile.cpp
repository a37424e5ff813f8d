// Reading and atomically replacing whole files.
#include "convoffload/io/TextFile.h"
#include "convoffload/io/FormatError.h"

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <random>
#include <system_error>

namespace convoffload {

namespace {

std::string systemReason(int error) { return std::generic_category().message(error); }

} // namespace

std::string readTextFile(const std::string &path)
{
    std::FILE *f = std::fopen(path.c_str(), "rb");
    if (!f)
        throw FormatError(path, "cannot open: " + systemReason(errno));
    std::string text;
    char buffer[65536];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0)
        text.append(buffer, n);
    const int error = std::ferror(f) ? errno : 0; // e.g. EISDIR: fopen accepts a folder on Linux
    std::fclose(f);
    if (error != 0)
        throw FormatError(path, "cannot read: " + systemReason(error));
    return text;
}

void writeTextFileAtomically(const std::string &path, const std::string &text)
{
    // A random suffix and exclusive creation ("x"): two saves never share a
    // temporary file, and an existing file is never clobbered by it.
    std::random_device random;
    std::string temporary;
    std::FILE *f = nullptr;
    int error = 0;
    for (int attempt = 0; attempt < 16 && !f; ++attempt) {
        char suffix[16];
        std::snprintf(suffix, sizeof suffix, ".tmp-%08x", unsigned(random()));
        temporary = path + suffix;
        f = std::fopen(temporary.c_str(), "wbx");
        error = f ? 0 : errno;
        if (!f && error != EEXIST)
            break;
    }
    if (!f)
        throw FormatError(path, "cannot create a temporary file next to it: " + systemReason(error));

    // errno may be left at 0 by a short write; EIO then stands for "failed".
    const auto failure = [] { return errno != 0 ? errno : EIO; };
    errno = 0;
    const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0;
    error = written ? 0 : failure();
    if (std::fclose(f) != 0 && written)
        error = failure();
    std::error_code ec;
    if (error == 0)
        std::filesystem::rename(temporary, path, ec);
    if (error != 0 || ec) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        throw FormatError(path, error != 0 ? "cannot write: " + systemReason(error) : "cannot replace the file: " + ec.message());
    }
}

} // namespace convoffload
