/*
 * qgemm.h - the 8-bit integer GEMM of cpu-openblas: the micro-kernels
 * (AVX-512 VNNI, AVX-VNNI, exact AVX2, scalar; the widest this CPU runs
 * is picked at run time, tests can force another) and the plan of the
 * matmul_integer / conv_integer steps built on them (kernels_q.c), with
 * the requantization chain fused into their epilogue (qfuse.c).
 *
 * Every operand is brought to one form: the broadcast side A (rows) and
 * the vector side B (columns) are one u8 and one s8 operand, which is
 * what vpdpbusd multiplies. A byte of the wrong signedness is flipped by
 * xor 0x80 (u8 -> s8 subtracts 128, s8 -> u8 adds 128) and its zero
 * point moves by the same 128, so (x - zp) is unchanged and every
 * result is exact; zero points enter through row and column sums.
 */
#ifndef RLXB_QGEMM_H
#define RLXB_QGEMM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <rlx/ops.h>
#include <rlx/types.h>

/* Micro-kernel paths, widest last. */
#define RLXB_QPATH_SCALAR 0
#define RLXB_QPATH_AVX2 1     /* widen to i16, vpmaddwd: exact */
#define RLXB_QPATH_AVXVNNI 2  /* vpdpbusd on ymm */
#define RLXB_QPATH_VNNI512 3  /* vpdpbusd on zmm */

/* Tile: QMR rows of A by QNR columns of B; K in groups of 4. */
#define RLXB_QMR 8
#define RLXB_QNR 32

/* The path this CPU runs (the widest it has, or the forced one). */
int rlxb_qgemm_path(void);
/* Tests: force PATH (-1: back to automatic). 0, or -1 when this CPU
 * cannot run it (nothing changes). */
int rlxb_qgemm_force(int path);

/* C[QMR][QNR] = sum over kp of A[r][k] * B[k][c] (wrapping i32): A is
 * QMR rows of KP bytes (row stride KP), B one packed panel
 * ([kp / 4][QNR][4] bytes). A_U8: A is u8 and B s8, else A s8 and B u8. */
void rlxb_qgemm_tile(int path, const uint8_t *a, const uint8_t *b,
                     size_t kp, int a_u8, int32_t *c);

/* Packs rows [0, kp) (kp a multiple of 4) of a [kp][ld] byte matrix,
 * columns [0, QNR * n_panels), into panels, flipping each byte by XOR. */
void rlxb_qpack_b(const uint8_t *src, size_t ld, size_t kp,
                  size_t n_panels, uint8_t xor_byte, uint8_t *dst);

/* The requantization chain after the integer result (qfuse.c finds it):
 * y = clamps(saturate(round half to even(f32(acc + bias) * mult / scale)
 * + zp)), with each operand a step input index (-1: none). */
#define RLXB_Q_MAX_CLAMP 4
typedef struct rlxb_qepi {
    int on;                   /* 0: the result is the i32 sum */
    int32_t bias_in;          /* i32 bias, per row / per column */
    int bias_col;             /* 1: per column, 0: per row */
    int32_t mult_in, scale_in, zp_in;
    int mult_mode;            /* 0 one value, 1 per row, 2 per column */
    rlx_dtype out;            /* U8 or I8 */
    uint32_t n_clamp;
    rlx_op clamp_op[RLXB_Q_MAX_CLAMP];    /* RLX_OP_MAX or RLX_OP_MIN */
    int32_t clamp_in[RLXB_Q_MAX_CLAMP];   /* one-element operand */
} rlxb_qepi;

/* A matmul_integer or conv_integer step. As a GEMM per batch (matmul)
 * or per image and group (conv): Y[m][n] = (A - za)[m][k] (B - zb)[k][n],
 * with, for a conv, A the weights [mg][cg kh kw] and B the image's
 * columns [cg kh kw][oh ow]; for a matmul A = a and B = b. */
typedef struct rlxb_qplan {
    int is_conv;
    size_t m, k, n, kp, mp;   /* kp: k rounded up to 4; mp: m to QMR */
    rlx_dtype ta, tb;         /* dtypes of A's and B's source */
    int a_u8;                 /* the kernel's A side is u8 */
    uint8_t xa, xb;           /* XOR bringing each source to its side */
    size_t za_count, zb_count; /* zero points: 1, or one per row / column */
    /* conv */
    size_t nb, c, groups, cg, ih, iw, oh, ow, kh, kw;
    size_t sh, sw, dh, dw, ph, pw;
    /* matmul: element offsets of each batch, row strides */
    size_t n_batch, a_row, b_row;
    size_t *a_off, *b_off;    /* owned */
    rlxb_qepi epi;
    /* A packed ([groups or batches][mp][kp]) with row sums, kept while
     * A's key stays (conv weights); B packed likewise (matmul weights) */
    uint64_t a_key, a_packed_key, b_key, b_packed_key;
    uint8_t *pa;
    int32_t *rsa;             /* sum of each packed A row */
    int32_t *za;              /* A's zero point per row, moved */
    size_t pa_size, pb_size;
    uint8_t *pb;
    int32_t *csb;             /* matmul: column sums of packed B */
    /* scratch, one slot per pool thread (owned) */
    unsigned n_slots;
    size_t slot_bytes;
    unsigned char *scratch;
    atomic_flag *busy;
    struct rlxb_qconv *direct; /* kernels_qconv.c's state (owned) */
} rlxb_qplan;

/* quantize_linear / dequantize_linear (kernels_qlinear.c): x seen as
 * [outer, len, inner], scale element per len index (per tensor: one). */
typedef struct rlxb_qlin {
    int quantize;             /* 1: f32 -> tx, 0: tx -> f32 */
    rlx_dtype tx;             /* the integer side: U8, I8 (or I32) */
    size_t outer, len, inner;
} rlxb_qlin;

#endif
