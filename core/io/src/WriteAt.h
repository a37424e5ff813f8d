// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one loop that writes bytes to a file for the saves: the temporary file
// (TextFile.cpp) and the file written in place and its backup
// (InPlaceWrite.cpp). By offset, with pwrite: no caller depends on, or
// moves, a file position.
#include <cerrno>
#include <cstddef>

#include <sys/types.h>
#include <unistd.h>

namespace convoffload {

/// Writes all `size` bytes of `buffer` at `offset`, again after a signal or a
/// short write: 0 or the error.
inline int writeAt(int fd, const char *buffer, std::size_t size, off_t offset)
{
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::pwrite(fd, buffer + done, size - done, offset + off_t(done));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (n == 0)
            return EIO;
        done += std::size_t(n);
    }
    return 0;
}

} // namespace convoffload
