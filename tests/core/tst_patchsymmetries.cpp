// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The symmetries the relaxed dynamic programming breaks (PatchSymmetries.h,
// private to core/optimise): which of the square's seven non-identity maps
// are true symmetries of an instance, counted by hand for each layer, and
// the image of a patch bitmask under one of them.

#include "exact/PatchSymmetries.h"

#include "convoffload/optimise/S1Instance.h"

#include <QTest>

using namespace convoffload;

namespace {

Problem layer(int hIn, int wIn, int stride, int padLeft, bool paddingInDram)
{
    Problem p;
    p.layer.c_in = 1;
    p.layer.h_in = hIn;
    p.layer.w_in = wIn;
    p.layer.h_k = p.layer.w_k = 3;
    p.layer.stride_h = p.layer.stride_w = stride;
    p.layer.pad_left = padLeft;
    p.layer.n = 1;
    p.hardware.nbop_pe = 9 * 2;
    p.hardware.mem_size = 1 << 20;
    p.options.padding_in_dram = paddingInDram;
    return p;
}

} // namespace

class TestPatchSymmetries : public QObject {
    Q_OBJECT
private slots:
    void countsTheTrueSymmetries_data()
    {
        QTest::addColumn<int>("hIn");
        QTest::addColumn<int>("wIn");
        QTest::addColumn<int>("stride");
        QTest::addColumn<int>("padLeft");
        QTest::addColumn<bool>("paddingInDram");
        QTest::addColumn<int>("symmetries");
        // 2×2 outputs of a 4×4 input: the whole group of the square.
        QTest::newRow("square") << 4 << 4 << 1 << 0 << true << 7;
        // 2×3 outputs: the two mirrors and the half turn; no transpose.
        QTest::newRow("rectangle") << 4 << 5 << 1 << 0 << true << 3;
        // A padding column on the left only, loaded from DRAM: the padded
        // 5×6 grid is a plain rectangle again.
        QTest::newRow("padding loaded") << 5 << 5 << 1 << 1 << true << 3;
        // Synthesised on chip, the padding is no pixel to load: only the
        // top-bottom mirror keeps every patch's pixels.
        QTest::newRow("padding on chip") << 5 << 5 << 1 << 1 << false << 1;
        // Stride 2 on 6 pixels: windows at 0-2 and 2-4, row and column 5
        // unused, so no mirror or turn maps the windows onto each other; the
        // transpose (row ↔ column) still does.
        QTest::newRow("stride leaves a column") << 6 << 6 << 2 << 0 << true << 1;
        // Stride 2 on 7 pixels: windows 0-2, 2-4, 4-6, symmetric again.
        QTest::newRow("stride fits") << 7 << 7 << 2 << 0 << true << 7;
    }
    void countsTheTrueSymmetries()
    {
        QFETCH(int, hIn);
        QFETCH(int, wIn);
        QFETCH(int, stride);
        QFETCH(int, padLeft);
        QFETCH(bool, paddingInDram);
        QFETCH(int, symmetries);
        const S1Instance in = makeS1Instance(layer(hIn, wIn, stride, padLeft, paddingInDram));
        const std::vector<std::vector<PatchId>> found = patchSymmetries(in);
        QCOMPARE(int(found.size()), symmetries);
        for (const std::vector<PatchId> &sigma : found) { // each a permutation
            std::vector<bool> hit(sigma.size(), false);
            for (const PatchId p : sigma)
                hit[p] = true;
            QVERIFY(std::all_of(hit.begin(), hit.end(), [](bool h) { return h; }));
        }
    }

    // 2×3 outputs, patches 0 1 2 / 3 4 5: the left-right mirror is the first
    // symmetry found and maps {0, 4} to {2, 4}.
    void mapsABitmask()
    {
        const std::vector<std::vector<PatchId>> found = patchSymmetries(makeS1Instance(layer(4, 5, 1, 0, true)));
        QVERIFY(!found.empty());
        QCOMPARE(found.front(), (std::vector<PatchId>{2, 1, 0, 5, 4, 3}));
        QCOMPARE(mapPatchMask(found.front(), 0b010001), std::uint64_t(0b010100));
    }
};

QTEST_APPLESS_MAIN(TestPatchSymmetries)
#include "tst_patchsymmetries.moc"
