// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// LP and MPS export of an IlpModel through CoinUtils' own writers, so the files
// follow the dialect the COIN-OR readers (and the cbc command line) expect.
#include "convoffload/optimise/IlpFiles.h"
#include "convoffload/optimise/IlpModel.h"

#include "convoffload/io/TextFile.h"

#include <CoinError.hpp>
#include <CoinFloatEqual.hpp>
#include <CoinHelperFunctions.hpp>
#include <CoinLpIO.hpp>
#include <CoinMpsIO.hpp>
#include <CoinPackedMatrix.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>

#include <unistd.h>

namespace convoffload {

namespace {

/// The model in the arrays CoinUtils takes; names as strings and as pointers.
struct CoinArrays {
    CoinPackedMatrix matrix;
    std::vector<double> col_lower, col_upper, row_lower, row_upper, row_rhs;
    std::vector<char> integer, row_sense;
    std::vector<std::string> col_names, row_names;

    explicit CoinArrays(const IlpModel &m)
    {
        const std::size_t rows = m.rowCount(), cols = m.columnCount();
        std::vector<int> index(m.term_column.begin(), m.term_column.end());
        std::vector<CoinBigIndex> start(m.row_start.begin(), m.row_start.end());
        std::vector<int> length(rows);
        for (std::size_t r = 0; r < rows; ++r)
            length[r] = int(m.row_start[r + 1] - m.row_start[r]);
        matrix = CoinPackedMatrix(false, int(cols), int(rows), CoinBigIndex(m.term_value.size()), m.term_value.data(),
            index.data(), start.data(), length.data());

        col_lower.assign(cols, 0.0);
        col_upper.assign(cols, 1.0);
        integer.assign(cols, 1);
        row_lower.resize(rows);
        row_upper.resize(rows);
        row_rhs.resize(rows);
        row_sense.resize(rows);
        for (std::size_t r = 0; r < rows; ++r) {
            const IlpRow &row = m.rows[r];
            row_sense[r] = row.sense;
            row_rhs[r] = row.rhs;
            row_lower[r] = row.sense == 'L' ? -COIN_DBL_MAX : row.rhs;
            row_upper[r] = row.sense == 'G' ? COIN_DBL_MAX : row.rhs;
        }
        col_names.reserve(cols);
        for (std::size_t c = 0; c < cols; ++c)
            col_names.push_back(m.columnName(c));
        row_names.reserve(rows + 1);
        for (std::size_t r = 0; r < rows; ++r)
            row_names.push_back(m.rowName(r));
    }
};

std::vector<const char *> pointers(const std::vector<std::string> &names)
{
    std::vector<const char *> out;
    out.reserve(names.size());
    for (const std::string &n : names)
        out.push_back(n.c_str());
    return out;
}

std::unique_ptr<CoinLpIO> lpWriter(const IlpModel &m)
{
    // The cbc LP reader drops a constant in the objective, so the constant
    // rides on a column fixed at 1: every LP reader keeps that.
    CoinArrays a(m);
    std::vector<double> cost = m.cost;
    const bool constantColumn = m.objective_offset != 0;
    if (constantColumn) {
        a.matrix.setDimensions(a.matrix.getNumRows(), a.matrix.getNumCols() + 1);
        a.col_lower.push_back(1);
        a.col_upper.push_back(1);
        a.integer.push_back(0);
        a.col_names.push_back("duration_constant");
        cost.push_back(m.objective_offset);
    }
    auto lp = std::make_unique<CoinLpIO>();
    lp->messageHandler()->setLogLevel(0);
    lp->setProblemName("convoffload_s1");
    lp->setLpDataWithoutRowAndColNames(
        a.matrix, a.col_lower.data(), a.col_upper.data(), cost.data(), a.integer.data(), a.row_lower.data(), a.row_upper.data());
    std::vector<const char *> rowNames = pointers(a.row_names);
    rowNames.push_back("duration"); // the objective's name comes last
    const std::vector<const char *> colNames = pointers(a.col_names);
    lp->setLpDataRowAndColNames(rowNames.data(), colNames.data());
    return lp;
}

} // namespace

std::string lpText(const IlpModel &m)
{
    std::unique_ptr<CoinLpIO> lp = lpWriter(m);
    char *buffer = nullptr;
    std::size_t size = 0;
    FILE *stream = open_memstream(&buffer, &size);
    if (!stream)
        throw IlpError(std::string("cannot write the LP text: ") + std::strerror(errno));
    const int rc = lp->writeLp(stream, 1e-9, 10, 9, true);
    std::fclose(stream);
    std::string text(buffer ? buffer : "", size);
    std::free(buffer);
    if (rc != 0)
        throw IlpError("CoinLpIO could not write the model");
    return text;
}

void writeMpsInPlace(const IlpModel &m, const std::string &path)
{
    const CoinArrays a(m);
    CoinMpsIO mps;
    mps.messageHandler()->setLogLevel(0);
    std::vector<double> range(m.rowCount(), 0.0);
    mps.setMpsData(a.matrix, COIN_DBL_MAX, a.col_lower.data(), a.col_upper.data(), m.cost.data(), a.integer.data(),
        a.row_sense.data(), a.row_rhs.data(), range.data(), a.col_names, a.row_names);
    mps.setObjectiveOffset(-m.objective_offset); // MPS: the objective RHS is minus the constant
    mps.setProblemName("convoffload_s1");
    int rc = 0;
    try {
        // Extra precision: costs such as t_l·C_in need not be round numbers.
        rc = mps.writeMps(path.c_str(), 0, 1, 2);
    } catch (const CoinError &e) {
        throw IlpError("CoinMpsIO could not write the model: " + e.message());
    }
    if (rc != 0)
        throw IlpError("CoinMpsIO could not write the model");
}

std::string mpsText(const IlpModel &m)
{
    // CoinMpsIO writes only to a named file (and throws CoinError when it
    // cannot open it): a private temporary file, read back, then removed.
    // mkstemp makes it, owned by this process, and in a sticky /tmp no other
    // user may rename or replace it; the file the user asked for is then
    // saved by writeTextFileAtomically below.
    const std::filesystem::path folder = std::filesystem::temp_directory_path();
    std::string name = (folder / "convoffload-mps-XXXXXX").string();
    const int fd = ::mkstemp(name.data());
    if (fd < 0)
        throw IlpError("cannot create a temporary file in " + folder.string() + ": " + std::strerror(errno));
    ::close(fd);
    struct Remove {
        const std::string &path;
        ~Remove() { std::remove(path.c_str()); }
    } remove{name};
    writeMpsInPlace(m, name);
    return readTextFile(name, std::numeric_limits<std::int64_t>::max());
}

// Both files go through the atomic writer: a failed export never leaves a
// half-written model, and an existing file keeps its permissions.
void writeLp(const IlpModel &m, const std::string &path) { writeTextFileAtomically(path, lpText(m)); }

void writeMps(const IlpModel &m, const std::string &path) { writeTextFileAtomically(path, mpsText(m)); }

} // namespace convoffload
