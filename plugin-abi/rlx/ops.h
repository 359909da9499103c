/*
 * rlx/ops.h - operation kinds and their attribute layouts.
 *
 * Values are explicit and only grow. A backend that meets an op value it
 * does not know answers "unsupported" from supports_op.
 *
 * Attributes travel as two arrays on each node (int_attrs, float_attrs);
 * the table below gives each op's layout. A missing trailing attribute
 * takes its default, so appending an attribute is a compatible change.
 *
 * Float ops (binary, unary, matmul, softmax, norms, reductions) take
 * f32, f16 or bf16; f16 and bf16 compute as if in f32 and round the
 * result. Data movement ops take any dtype. Since 1.4 the arithmetic,
 * comparison and select ops also take the integer dtypes (and bool where
 * meaningful): each op's comment and docs/ops.md say which.
 *
 * Broadcasting follows NumPy: shapes are aligned from the right, and a
 * dimension of 1 stretches to match the other.
 *
 * Since which ABI version each value exists: the list below is grouped by
 * version ("--- since 1.0 ---", "--- since 1.1 ---"); a backend built for
 * an older minor never declares the newer ops. docs/ops.md has every
 * op's attributes, shape rules and edge cases.
 */
#ifndef RLX_OPS_H
#define RLX_OPS_H

/* X(NAME, value, lower-case name, number of inputs) */
#define RLX_OP_MAP(X)                                                        \
    /* --- since 1.0: every op up to and including softmax ---          */  \
    /* sources: no inputs */                                                 \
    X(INPUT, 1, "input", 0)       /* fed at each run */                      \
    X(PARAM, 2, "param", 0)       /* named weight, set once */               \
    X(CONSTANT, 3, "constant", 0) /* data embedded in the graph */           \
    /* binary, broadcasting, same dtype on both sides */                     \
    X(ADD, 10, "add", 2)                                                     \
    X(SUB, 11, "sub", 2)                                                     \
    X(MUL, 12, "mul", 2)                                                     \
    X(DIV, 13, "div", 2)                                                     \
    X(MAX, 14, "max", 2)                                                     \
    X(MIN, 15, "min", 2)                                                     \
    X(POW, 16, "pow", 2)                                                     \
    /* unary, elementwise */                                                 \
    X(RELU, 30, "relu", 1)                                                   \
    X(GELU, 31, "gelu", 1) /* int_attrs[0]: 0 erf form (default), 1 tanh */  \
    X(SIGMOID, 32, "sigmoid", 1)                                             \
    X(TANH, 33, "tanh", 1)                                                   \
    X(EXP, 34, "exp", 1)                                                     \
    X(SIN, 35, "sin", 1)                                                     \
    X(COS, 36, "cos", 1)                                                     \
    X(NEG, 37, "neg", 1)                                                     \
    X(ABS, 38, "abs", 1)                                                     \
    X(LOG, 39, "log", 1)                                                     \
    X(SQRT, 40, "sqrt", 1)                                                   \
    X(RSQRT, 41, "rsqrt", 1)                                                 \
    X(SILU, 42, "silu", 1)                                                   \
    X(TAN, 43, "tan", 1)                                                     \
    X(ATAN, 44, "atan", 1)                                                   \
    /* structured */                                                         \
    /* matmul: a [..., m, k] x b [..., k, n] -> [..., m, n]; batch dims  */  \
    /* broadcast; a rank-1 side is a vector. int_attrs: [0] transpose a, */  \
    /* [1] transpose b (swap the last two dims), default 0.             */  \
    X(MATMUL, 60, "matmul", 2)                                               \
    /* softmax: int_attrs [0] axis, default -1 (negative counts from the */  \
    /* end); [1] causal, default 0: with rank >= 2 and axis the last,    */  \
    /* entries with column j > i + (cols - rows) of each [rows, cols]    */  \
    /* matrix are excluded (weight 0), as in masked self-attention.      */  \
    X(SOFTMAX, 61, "softmax", 1)                                             \
    /* --- since 1.1: the norms, reductions, data movement and fill,    */  \
    /* and softmax's causal attribute ---                                */  \
    /* layer_norm(x, gamma, beta) over the last axis; gamma and beta are */  \
    /* [x.shape[-1]]. float_attrs [0] epsilon, default 1e-5.             */  \
    X(LAYER_NORM, 62, "layer_norm", 3)                                       \
    /* rms_norm(x, gamma) over the last axis: x / sqrt(mean(x^2) + eps)  */  \
    /* * gamma. float_attrs [0] epsilon, default 1e-6.                   */  \
    X(RMS_NORM, 63, "rms_norm", 2)                                           \
    /* reductions: int_attrs [0] keepdims (default 0), [1..] the axes    */  \
    /* (none: every axis). Reducing an empty axis: sum 0, mean NaN, max  */  \
    /* -inf.                                                             */  \
    X(REDUCE_SUM, 64, "reduce_sum", 1)                                       \
    X(REDUCE_MEAN, 65, "reduce_mean", 1)                                     \
    X(REDUCE_MAX, 66, "reduce_max", 1)                                       \
    /* data movement; any dtype                                          */  \
    /* reshape: int_attrs = the new shape; one entry may be -1 (inferred) */ \
    X(RESHAPE, 70, "reshape", 1)                                             \
    /* transpose: int_attrs = the permutation (none: reverse the dims)   */  \
    X(TRANSPOSE, 71, "transpose", 1)                                         \
    /* concat: one or more inputs; int_attrs [0] axis, default 0         */  \
    X(CONCAT, 72, "concat", -1)                                              \
    /* slice: int_attrs = (axis, start, end) triples; negative start and */  \
    /* end count from the end, both clamp to [0, dim]; step 1; axes not  */  \
    /* named are kept whole.                                             */  \
    X(SLICE, 73, "slice", 1)                                                 \
    /* gather(data, indices): int_attrs [0] axis, default 0; indices are */  \
    /* i32 or i64; result shape data[:axis] + indices + data[axis+1:].   */  \
    /* An index outside [0, dim) fails the run (RLX_ERR_INVALID_ARGUMENT).*/ \
    X(GATHER, 74, "gather", 2)                                               \
    /* cast: int_attrs [0] the target rlx_dtype. Float to int truncates   */ \
    /* toward zero and saturates; NaN becomes 0. To f16/bf16 rounds to   */  \
    /* nearest even.                                                     */  \
    X(CAST, 75, "cast", 1)                                                   \
    /* fill: no inputs; int_attrs [0] dtype, [1..] the shape;            */  \
    /* float_attrs [0] the value (default 0).                            */  \
    X(FILL, 76, "fill", 0)                                                   \
    /* --- since 1.4 ---                                                 */  \
    /* Spatial ops: x is [N, C, D1..Ds] (s = rank - 2 >= 1). Per-axis    */  \
    /* attributes are blocks of s entries, one per spatial axis, in the  */  \
    /* order given; a block left out takes its default for every axis.   */  \
    /* They take f32, f16, bf16; max_pool and nearest resize also i8, u8.*/  \
    /* Ceil mode drops a last window that starts in the end padding.     */  \
    /* conv(x, w[, bias]), 2 or 3 inputs: w [M, C/group, k1..ks], bias   */  \
    /* [M]; y [N, M, O1..Os], Oi = floor((Di + pb + pe - ((ki-1)*dil +   */  \
    /* 1)) / stride) + 1. int_attrs [0] group (default 1), then blocks:  */  \
    /* strides (1), dilations (1), pads_begin (0), pads_end (0).         */  \
    X(CONV, 80, "conv", -1)                                                  \
    /* conv_transpose(x, w[, bias]): w [C, M/group, k1..ks], bias [M];   */  \
    /* Oi = stride*(Di-1) + out_pad + (ki-1)*dil + 1 - pb - pe.          */  \
    /* int_attrs [0] group (1), then blocks: strides (1), dilations (1), */  \
    /* pads_begin (0), pads_end (0), output_padding (0).                 */  \
    X(CONV_TRANSPOSE, 81, "conv_transpose", -1)                              \
    /* pools: int_attrs [0] ceil_mode (0), [1] count_include_pad (0,     */  \
    /* avg_pool only), [2] p (2, lp_pool only), then blocks: kernel      */  \
    /* (required), strides (1), dilations (1), pads_begin (0), pads_end  */  \
    /* (0). Padding never wins a max; lp_pool is (sum |x|^p)^(1/p).      */  \
    X(MAX_POOL, 82, "max_pool", 1)                                           \
    X(AVG_POOL, 83, "avg_pool", 1)                                           \
    X(LP_POOL, 84, "lp_pool", 1)                                             \
    /* resize(x), any rank r: int_attrs [0] mode (RLX_RESIZE_NEAREST),   */  \
    /* [1] coordinate transform (RLX_RESIZE_HALF_PIXEL), [2] nearest     */  \
    /* rounding (RLX_RESIZE_ROUND_PREFER_FLOOR), [3] exclude_outside     */  \
    /* (0), [4..4+r) the output shape (required). float_attrs [0]        */  \
    /* cubic_coeff_a (-0.75), [1] extrapolation_value (0), [2..2+r) the  */  \
    /* scale per axis (out/in), [2+r..2+3r) roi: r starts then r ends    */  \
    /* (0 and 1; tf_crop_and_resize only).                               */  \
    X(RESIZE, 85, "resize", 1)                                               \
    /* batch_norm(x, scale, bias, mean, var), inference: per channel     */  \
    /* (axis 1; each parameter [C]). float_attrs [0] epsilon (1e-5).     */  \
    X(BATCH_NORM, 86, "batch_norm", 5)                                       \
    /* instance_norm(x, scale, bias): per (n, c) over the spatial axes;  */  \
    /* scale, bias [C]. float_attrs [0] epsilon (1e-5).                  */  \
    X(INSTANCE_NORM, 87, "instance_norm", 3)                                 \
    /* group_norm(x, scale, bias): per (n, group) over the group's       */  \
    /* channels and spatial axes; scale, bias [C] (per channel) or       */  \
    /* [groups] (per group). int_attrs [0] groups (required);           */  \
    /* float_attrs [0] epsilon (1e-5).                                   */  \
    X(GROUP_NORM, 88, "group_norm", 3)                                        \
    /* values 100-149: comparisons, select, integer and elementwise    */  \
    /* ops, more reductions; the integer dtypes (i8, u8,                */  \
    /* i32, i64) through add, sub, mul, div, max, min, pow, neg, abs,   */  \
    /* relu and reduce_sum/mean/max. Integer arithmetic wraps; integer  */  \
    /* div truncates toward zero; x / 0 and x mod 0 give 0 (docs/ops.md) */ \
    /* comparisons: broadcasting, same dtype on both sides (any numeric, */ \
    /* bool too for equal); the result is bool. NaN compares unequal.   */  \
    X(EQUAL, 100, "equal", 2)                                                \
    X(LESS, 101, "less", 2)                                                  \
    X(LESS_EQUAL, 102, "less_equal", 2)                                      \
    X(GREATER, 103, "greater", 2)                                            \
    X(GREATER_EQUAL, 104, "greater_equal", 2)                                \
    /* logical: bool in, bool out; the binary ones broadcast             */  \
    X(LOGICAL_AND, 105, "logical_and", 2)                                    \
    X(LOGICAL_OR, 106, "logical_or", 2)                                      \
    X(LOGICAL_XOR, 107, "logical_xor", 2)                                    \
    X(LOGICAL_NOT, 108, "logical_not", 1)                                    \
    /* where(cond, a, b): cond bool, a and b one dtype (any); all three  */  \
    /* broadcast together; a where cond is true, else b.                 */  \
    X(WHERE, 109, "where", 3)                                                \
    /* clip: float_attrs [0] min (default -inf), [1] max (default +inf); */  \
    /* NaN stays NaN. Integer dtypes too: the bounds are rounded inward  */  \
    /* (min up, max down) and saturate to the dtype's range.             */  \
    X(CLIP, 110, "clip", 1)                                                  \
    /* unary, float dtypes unless said                                   */  \
    X(FLOOR, 111, "floor", 1)                                                \
    X(CEIL, 112, "ceil", 1)                                                  \
    X(ROUND, 113, "round", 1) /* half to even */                             \
    X(SIGN, 114, "sign", 1)   /* -1, 0 or 1; NaN stays; any numeric dtype */ \
    X(RECIPROCAL, 115, "reciprocal", 1)                                      \
    X(ERF, 116, "erf", 1)                                                    \
    X(ISNAN, 117, "isnan", 1) /* result bool */                              \
    /* isinf: result bool. int_attrs [0] detect_positive (default 1),    */  \
    /* [1] detect_negative (default 1).                                  */  \
    X(ISINF, 118, "isinf", 1)                                                \
    /* bitwise: integer dtypes (i8, u8, i32, i64); binary ones broadcast */  \
    X(BITWISE_AND, 119, "bitwise_and", 2)                                    \
    X(BITWISE_OR, 120, "bitwise_or", 2)                                      \
    X(BITWISE_XOR, 121, "bitwise_xor", 2)                                    \
    X(BITWISE_NOT, 122, "bitwise_not", 1)                                    \
    /* activations. float_attrs: leaky_relu [0] alpha (0.01); elu [0]    */  \
    /* alpha (1.0); selu [0] alpha (1.67326319217681884765625), [1]      */  \
    /* gamma (1.05070102214813232421875); hard_sigmoid [0] alpha (0.2),  */  \
    /* [1] beta (0.5): max(0, min(1, alpha * x + beta)). hard_swish is   */  \
    /* x * hard_sigmoid(x) with alpha 1/6, beta 0.5; softplus            */  \
    /* log(1 + exp(x)); mish x * tanh(softplus(x)).                      */  \
    X(LEAKY_RELU, 123, "leaky_relu", 1)                                      \
    X(ELU, 124, "elu", 1)                                                    \
    X(SELU, 125, "selu", 1)                                                  \
    X(SOFTPLUS, 126, "softplus", 1)                                          \
    X(HARD_SIGMOID, 127, "hard_sigmoid", 1)                                  \
    X(HARD_SWISH, 128, "hard_swish", 1)                                      \
    X(MISH, 129, "mish", 1)                                                  \
    /* prelu(x, slope): x < 0 ? slope * x : x; the two broadcast.       */  \
    X(PRELU, 130, "prelu", 2)                                                \
    /* mod(a, b), broadcasting: int_attrs [0] fmod (default 0). fmod 0:  */  \
    /* integer dtypes only, the result has the sign of the divisor       */  \
    /* (Python %); fmod 1: C fmod, sign of the dividend, any numeric.    */  \
    X(MOD, 131, "mod", 2)                                                    \
    /* more reductions, same attributes as reduce_sum. Empty axis: min   */  \
    /* +inf (integers: the dtype's max), prod 1, l1 0, l2 0,             */  \
    /* log_sum_exp -inf, sum_square 0.                                   */  \
    X(REDUCE_MIN, 132, "reduce_min", 1)                                      \
    X(REDUCE_PROD, 133, "reduce_prod", 1)                                    \
    X(REDUCE_L1, 134, "reduce_l1", 1)                                        \
    X(REDUCE_L2, 135, "reduce_l2", 1)                                        \
    X(REDUCE_LOG_SUM_EXP, 136, "reduce_log_sum_exp", 1)                      \
    X(REDUCE_SUM_SQUARE, 137, "reduce_sum_square", 1)                        \
    /* argmax, argmin: result i64. int_attrs [0] axis (default 0), [1]   */  \
    /* keepdims (default 1, as ONNX), [2] select_last_index (default 0): */  \
    /* which of tied extremes wins. NaN counts as the extreme. Any       */  \
    /* numeric dtype; the axis must not be empty.                        */  \
    X(ARGMAX, 138, "argmax", 1)                                              \
    X(ARGMIN, 139, "argmin", 1)                                              \
    /* data movement and indexing (values 150-199)                      */  \
    /* pad: int_attrs [0] mode (RLX_PAD_*, default constant), [1..] the  */  \
    /* pads as ONNX orders them: rank begins, then rank ends (absent: 0); */ \
    /* a negative pad crops. float_attrs [0] the constant (default 0),   */  \
    /* converted to the dtype as cast does. reflect, edge and wrap need */   \
    /* a non-empty axis; pads wider than it repeat the pattern (NumPy). */   \
    X(PAD, 150, "pad", 1)                                                    \
    /* expand: int_attrs = the shape; broadcast both ways as ONNX Expand: */ \
    /* the result is broadcast(x.shape, shape).                           */ \
    X(EXPAND, 151, "expand", 1)                                              \
    /* tile: int_attrs = the repeats, one per axis, each >= 0.            */ \
    X(TILE, 152, "tile", 1)                                                  \
    /* strided_slice: int_attrs = (axis, start, end, step) quadruples,    */ \
    /* step != 0; ONNX Slice rules: negative start/end count from the    */  \
    /* end, then clamp to [0, dim] (step > 0) or [-1, dim-1] (step < 0); */  \
    /* axes not named are kept whole. Reverse is step -1, start -1, end  */  \
    /* INT64_MIN.                                                         */ \
    X(STRIDED_SLICE, 153, "strided_slice", 1)                                \
    /* gather_elements(data, indices): int_attrs [0] axis, default 0;    */  \
    /* indices i32/i64, same rank as data; result has the indices' shape. */ \
    /* Negative indices count from the end; out of range fails the run.  */  \
    X(GATHER_ELEMENTS, 154, "gather_elements", 2)                            \
    /* gather_nd(data, indices): int_attrs [0] batch_dims, default 0;    */  \
    /* result indices.shape[:-1] + data.shape[batch_dims + last:]. Index */  \
    /* rules as gather_elements.                                          */ \
    X(GATHER_ND, 155, "gather_nd", 2)                                        \
    /* scatter_elements(data, indices, updates): int_attrs [0] axis      */  \
    /* (default 0), [1] reduction (RLX_REDUCTION_*, default none); result */ \
    /* is data's shape; duplicates apply in row-major order of indices.  */  \
    X(SCATTER_ELEMENTS, 156, "scatter_elements", 3)                          \
    /* scatter_nd(data, indices, updates): int_attrs [0] reduction.       */ \
    X(SCATTER_ND, 157, "scatter_nd", 3)                                      \
    /* cumsum: int_attrs [0] axis (default 0), [1] exclusive, [2] reverse */ \
    /* (default 0); numeric dtypes (not bool); integers wrap.             */ \
    X(CUMSUM, 158, "cumsum", 1)                                              \
    /* topk: int_attrs [0] k, [1] axis (default -1), [2] largest (default */ \
    /* 1), [3] sorted (default 1); result: i64 indices, axis dim = k;     */ \
    /* ties: lower index first; NaN above every number. Values are       */  \
    /* gather_elements(x, topk(x)). Numeric dtypes, not bool.             */ \
    X(TOPK, 159, "topk", 1)                                                  \
    /* range: no inputs; int_attrs [0] dtype, [1] count, and for integer  */ \
    /* dtypes [2] start (default 0), [3] delta (default 1); float dtypes  */ \
    /* take float_attrs [0] start (0), [1] delta (1). y[i] = start + i*d. */ \
    X(RANGE, 160, "range", 0)                                                \
    /* one_hot(indices, values): values is [2] = (off, on), any dtype,   */  \
    /* the result's dtype; indices i32/i64. int_attrs [0] depth, [1] axis */ \
    /* (default -1, of the result). Negative indices count from the end; */  \
    /* one outside [-depth, depth) gives an all-off row (as ONNX).        */ \
    X(ONE_HOT, 161, "one_hot", 2)                                            \
    /* trilu: int_attrs [0] upper (default 1), [1] k (default 0): keeps  */  \
    /* j >= i + k (upper) or j <= i + k (lower) of the last two dims.    */  \
    X(TRILU, 162, "trilu", 1)                                                \
    /* non_zero: i64 [rank, n]: the coordinates of the nonzero elements   */ \
    /* in row-major order. int_attrs [0] n (default -1: numel(x)); fewer  */ \
    /* nonzeros than n pad with -1 columns, more fail the run. An exact   */ \
    /* ONNX NonZero is folded at compile time (docs/ops.md).              */ \
    X(NON_ZERO, 163, "non_zero", 1)                                          \
    /* values 140-149: more math and bit shifts (89-99: vision ops)     */  \
    /* inverse trigonometric and hyperbolic functions: unary, f32, f16,  */  \
    /* bf16 and f64. Outside the domain the result is NaN (asin, acos    */  \
    /* |x| > 1, acosh x < 1, atanh |x| > 1); atanh(+-1) is +-inf.        */  \
    X(ASIN, 140, "asin", 1)                                                  \
    X(ACOS, 141, "acos", 1)                                                  \
    X(SINH, 142, "sinh", 1)                                                  \
    X(COSH, 143, "cosh", 1)                                                  \
    X(ASINH, 144, "asinh", 1)                                                \
    X(ACOSH, 145, "acosh", 1)                                                \
    X(ATANH, 146, "atanh", 1)                                                \
    /* bit_shift(x, n), broadcasting, unsigned integer dtypes (u8, u16, */   \
    /* u32, u64), same dtype on both sides: int_attrs [0] direction     */   \
    /* (RLX_BIT_SHIFT_LEFT, default; RLX_BIT_SHIFT_RIGHT). Bits shifted */   \
    /* out are lost; a shift by the width or more gives 0.              */   \
    X(BIT_SHIFT, 147, "bit_shift", 2)                                        \
    /* max_pool_index(x): where each max_pool maximum is, i64; the same  */  \
    /* attributes and result shape as max_pool (x f32, f16 or bf16),    */  \
    /* except int_attrs [2] storage_order (0, default: row-major; 1:    */  \
    /* column-major) in place of lp_pool's p. The position counts over  */  \
    /* the whole input: (n*C + c)*D1*..*Ds plus the spatial position,   */  \
    /* row-major (i1*D2 + i2 ...) or column-major (i1 + i2*D1 ...). Of  */  \
    /* equal maxima the first in window order wins, a NaN wins over     */  \
    /* numbers; a window wholly in the padding gives -1. The values are */  \
    /* max_pool's.                                                      */  \
    X(MAX_POOL_INDEX, 89, "max_pool_index", 1)                               \
    /* grid_sample(x, grid): x [N, C, D1..Ds] (s = 1 to 3), grid [N,    */  \
    /* O1..Os, s] of x's dtype (f32, f16, bf16), its last axis the       */ \
    /* coordinates in [-1, 1], innermost axis first (x, y[, z]); y [N,  */  \
    /* C, O1..Os]. int_attrs [0] mode (RLX_GRID_SAMPLE_LINEAR, default; */  \
    /* _NEAREST, half to even; _CUBIC, a = -0.75), [1] padding          */  \
    /* (RLX_GRID_SAMPLE_ZEROS, default; _BORDER; _REFLECTION), [2]      */  \
    /* align_corners (0). As ONNX GridSample; docs/ops.md.              */  \
    X(GRID_SAMPLE, 90, "grid_sample", 2)                                     \
    /* det(x): x [..., m, m] -> [...], the determinant of each matrix;  */  \
    /* f32, f16, bf16, f64. LU with partial pivoting in double; an      */  \
    /* empty matrix (m = 0) gives 1.                                    */  \
    X(DET, 91, "det", 1)                                                     \
    /* roi_align(x, rois, batch_index): x [N, C, H, W] (f32, f16, bf16), */ \
    /* rois [R, 4] (x1, y1, x2, y2) of x's dtype, batch_index [R] i32   */  \
    /* or i64; y [R, C, oh, ow]. int_attrs [0] mode (0 avg, default; 1  */  \
    /* max), [1] oh (1), [2] ow (1), [3] sampling_ratio (0: adaptive),  */  \
    /* [4] half_pixel (1: the roi shifted by -0.5 after scaling; 0:     */  \
    /* ONNX's output_half_pixel, rois at least 1 wide). float_attrs [0] */  \
    /* spatial_scale (1). A batch index outside [0, N) fails the run.   */  \
    X(ROI_ALIGN, 92, "roi_align", 3)                                         \
    /* quantization (values 200-219). Every input is required; ONNX's   */  \
    /* optional zero points are lowered as zero constants.               */  \
    /* quantize_linear(x, scale, zero_point): y = saturate(round half to */  \
    /* even(x / scale) + zero_point); NaN gives zero_point. x f32, f16   */  \
    /* or bf16; scale x's dtype; zero_point i8 or u8, the result's dtype.*/  \
    /* scale and zero_point share one shape: [] or [1] (per tensor),     */  \
    /* [D] (per axis, D = x's axis dim) or, with block_size B > 0, x's   */  \
    /* shape with the axis dim ceil(D / B) (blocked). int_attrs [0] axis */  \
    /* (default 1), [1] block_size (default 0).                          */  \
    X(QUANTIZE_LINEAR, 200, "quantize_linear", 3)                            \
    /* dequantize_linear(x, scale, zero_point): y = (x - zero_point) *   */  \
    /* scale, computed in f32 and rounded to scale's dtype (the          */  \
    /* result's). x i8, u8 or i32; zero_point x's dtype; shapes and      */  \
    /* int_attrs as quantize_linear.                                     */  \
    X(DEQUANTIZE_LINEAR, 201, "dequantize_linear", 3)                        \
    /* matmul_integer(a, b, a_zero_point, b_zero_point): i32 result of   */  \
    /* (a - a_zp) x (b - b_zp), matmul's shape rules (no transposes); a  */  \
    /* and b i8 or u8, each zero point its operand's dtype: a_zp [] or   */  \
    /* [M] (per row), b_zp [] or [N] (per column). Sums wrap to i32.     */  \
    X(MATMUL_INTEGER, 202, "matmul_integer", 4)                              \
    /* conv_integer(x, w, x_zero_point, w_zero_point): i32 result of the */  \
    /* conv of (x - x_zp) by (w - w_zp), padding with x_zp (0 after the  */  \
    /* shift); x, w i8 or u8; x_zp [] (x's dtype); w_zp [] or [M] (w's). */  \
    /* int_attrs exactly as conv's. Sums wrap to i32.                    */  \
    X(CONV_INTEGER, 203, "conv_integer", 4)

typedef enum rlx_op {
    RLX_OP_INVALID = 0, /* since 1.0; the others: see RLX_OP_MAP */
#define RLX__OP_ENUM(name, value, text, arity) RLX_OP_##name = value,
    RLX_OP_MAP(RLX__OP_ENUM)
#undef RLX__OP_ENUM
    RLX__OP_FORCE_INT = 0x7fffffff
} rlx_op;

/* Arity -1: one or more inputs. */
#define RLX_OP_VARIADIC (-1)

/* Attribute indices, named so code does not use bare numbers. The first
 * four since 1.0, then 1.1 up to FILL's, then 1.4's. */
enum {
    RLX_ATTR_GELU_APPROX = 0,
    RLX_ATTR_MATMUL_TRANSPOSE_A = 0,
    RLX_ATTR_MATMUL_TRANSPOSE_B = 1,
    RLX_ATTR_SOFTMAX_AXIS = 0,
    RLX_ATTR_SOFTMAX_CAUSAL = 1, /* since 1.1 */
    RLX_ATTR_NORM_EPSILON = 0,   /* float_attrs */
    RLX_ATTR_REDUCE_KEEPDIMS = 0,
    RLX_ATTR_REDUCE_AXES = 1,    /* first of the axes */
    RLX_ATTR_CONCAT_AXIS = 0,
    RLX_ATTR_GATHER_AXIS = 0,
    RLX_ATTR_CAST_DTYPE = 0,
    RLX_ATTR_FILL_DTYPE = 0,
    RLX_ATTR_FILL_SHAPE = 1,     /* first dimension */
    RLX_ATTR_FILL_VALUE = 0,     /* float_attrs */
    /* since 1.4: conv, conv_transpose; per-axis blocks follow GROUP */
    RLX_ATTR_CONV_GROUP = 0,
    RLX_ATTR_CONV_BLOCKS = 1,    /* strides[s] at 1, dilations[s] at 1+s... */
    RLX_ATTR_CONV_STRIDES = 0,   /* block numbers: entry 1 + block*s + i */
    RLX_ATTR_CONV_DILATIONS = 1,
    RLX_ATTR_CONV_PADS_BEGIN = 2,
    RLX_ATTR_CONV_PADS_END = 3,
    RLX_ATTR_CONV_OUTPUT_PADDING = 4, /* conv_transpose only */
    /* max_pool, avg_pool, lp_pool */
    RLX_ATTR_POOL_CEIL_MODE = 0,
    RLX_ATTR_POOL_COUNT_INCLUDE_PAD = 1,
    RLX_ATTR_POOL_P = 2,
    RLX_ATTR_POOL_BLOCKS = 3,    /* kernel[s] at 3, strides[s] at 3+s... */
    RLX_ATTR_POOL_KERNEL = 0,    /* block numbers: entry 3 + block*s + i */
    RLX_ATTR_POOL_STRIDES = 1,
    RLX_ATTR_POOL_DILATIONS = 2,
    RLX_ATTR_POOL_PADS_BEGIN = 3,
    RLX_ATTR_POOL_PADS_END = 4,
    /* resize */
    RLX_ATTR_RESIZE_MODE = 0,
    RLX_ATTR_RESIZE_COORD = 1,
    RLX_ATTR_RESIZE_NEAREST = 2,
    RLX_ATTR_RESIZE_EXCLUDE_OUTSIDE = 3,
    RLX_ATTR_RESIZE_SHAPE = 4,   /* first of the r output dimensions */
    RLX_ATTR_RESIZE_CUBIC_A = 0, /* float_attrs */
    RLX_ATTR_RESIZE_EXTRAPOLATION = 1, /* float_attrs */
    RLX_ATTR_RESIZE_SCALES = 2,  /* float_attrs: r scales, then the roi */
    /* group_norm (epsilon: RLX_ATTR_NORM_EPSILON, as every norm) */
    RLX_ATTR_GROUP_NORM_GROUPS = 0,
    /* values 100-149 */
    RLX_ATTR_CLIP_MIN = 0,       /* float_attrs */
    RLX_ATTR_CLIP_MAX = 1,       /* float_attrs */
    RLX_ATTR_ISINF_DETECT_POSITIVE = 0,
    RLX_ATTR_ISINF_DETECT_NEGATIVE = 1,
    RLX_ATTR_LEAKY_RELU_ALPHA = 0, /* float_attrs */
    RLX_ATTR_ELU_ALPHA = 0,      /* float_attrs */
    RLX_ATTR_SELU_ALPHA = 0,     /* float_attrs */
    RLX_ATTR_SELU_GAMMA = 1,     /* float_attrs */
    RLX_ATTR_HARD_SIGMOID_ALPHA = 0, /* float_attrs */
    RLX_ATTR_HARD_SIGMOID_BETA = 1,  /* float_attrs */
    RLX_ATTR_MOD_FMOD = 0,
    RLX_ATTR_ARG_AXIS = 0,       /* argmax, argmin */
    RLX_ATTR_ARG_KEEPDIMS = 1,
    RLX_ATTR_ARG_SELECT_LAST_INDEX = 2,
    /* data movement and indexing */
    RLX_ATTR_PAD_MODE = 0,
    RLX_ATTR_PAD_PADS = 1,       /* rank begins, then rank ends */
    RLX_ATTR_PAD_VALUE = 0,      /* float_attrs */
    RLX_ATTR_EXPAND_SHAPE = 0,   /* first dimension */
    RLX_ATTR_TILE_REPEATS = 0,   /* first axis */
    RLX_ATTR_STRIDED_SLICE_QUADS = 0, /* (axis, start, end, step)... */
    RLX_ATTR_GATHER_ELEMENTS_AXIS = 0,
    RLX_ATTR_GATHER_ND_BATCH_DIMS = 0,
    RLX_ATTR_SCATTER_ELEMENTS_AXIS = 0,
    RLX_ATTR_SCATTER_ELEMENTS_REDUCTION = 1,
    RLX_ATTR_SCATTER_ND_REDUCTION = 0,
    RLX_ATTR_CUMSUM_AXIS = 0,
    RLX_ATTR_CUMSUM_EXCLUSIVE = 1,
    RLX_ATTR_CUMSUM_REVERSE = 2,
    RLX_ATTR_TOPK_K = 0,
    RLX_ATTR_TOPK_AXIS = 1,
    RLX_ATTR_TOPK_LARGEST = 2,
    RLX_ATTR_TOPK_SORTED = 3,
    RLX_ATTR_RANGE_DTYPE = 0,
    RLX_ATTR_RANGE_COUNT = 1,
    RLX_ATTR_RANGE_INT_START = 2,
    RLX_ATTR_RANGE_INT_DELTA = 3,
    RLX_ATTR_RANGE_START = 0,    /* float_attrs */
    RLX_ATTR_RANGE_DELTA = 1,    /* float_attrs */
    RLX_ATTR_ONE_HOT_DEPTH = 0,
    RLX_ATTR_ONE_HOT_AXIS = 1,
    RLX_ATTR_TRILU_UPPER = 0,
    RLX_ATTR_TRILU_K = 1,
    RLX_ATTR_NON_ZERO_COLUMNS = 0,
    RLX_ATTR_QUANT_AXIS = 0,       /* quantize_linear, dequantize_linear */
    RLX_ATTR_QUANT_BLOCK_SIZE = 1,
    /* values 89-99 and 140-149 */
    RLX_ATTR_BIT_SHIFT_DIRECTION = 0,
    RLX_ATTR_POOL_STORAGE_ORDER = 2, /* max_pool_index, in lp_pool's p */
    RLX_ATTR_GRID_SAMPLE_MODE = 0,
    RLX_ATTR_GRID_SAMPLE_PADDING = 1,
    RLX_ATTR_GRID_SAMPLE_ALIGN_CORNERS = 2,
    RLX_ATTR_ROI_ALIGN_MODE = 0,
    RLX_ATTR_ROI_ALIGN_HEIGHT = 1,
    RLX_ATTR_ROI_ALIGN_WIDTH = 2,
    RLX_ATTR_ROI_ALIGN_SAMPLING_RATIO = 3,
    RLX_ATTR_ROI_ALIGN_HALF_PIXEL = 4,
    RLX_ATTR_ROI_ALIGN_SPATIAL_SCALE = 0 /* float_attrs */
};

/* Entry of per-axis block BLOCK, axis I (of S spatial axes). */
#define RLX_ATTR_CONV_AT(block, s, i) \
    (RLX_ATTR_CONV_BLOCKS + (block) * (s) + (i))
#define RLX_ATTR_POOL_AT(block, s, i) \
    (RLX_ATTR_POOL_BLOCKS + (block) * (s) + (i))

/* resize int_attrs [0]: interpolation mode (since 1.4) */
#define RLX_RESIZE_NEAREST 0
#define RLX_RESIZE_LINEAR 1
#define RLX_RESIZE_CUBIC 2
/* resize int_attrs [1]: how an output coordinate maps to an input one
 * (ONNX coordinate_transformation_mode; scale = the axis's scale) */
#define RLX_RESIZE_HALF_PIXEL 0            /* (o + 0.5) / scale - 0.5 */
#define RLX_RESIZE_HALF_PIXEL_SYMMETRIC 1
#define RLX_RESIZE_PYTORCH_HALF_PIXEL 2    /* half_pixel; 0 if out is 1 */
#define RLX_RESIZE_ALIGN_CORNERS 3         /* o * (in-1) / (out-1) */
#define RLX_RESIZE_ASYMMETRIC 4            /* o / scale */
#define RLX_RESIZE_TF_CROP_AND_RESIZE 5    /* through the roi */
/* resize int_attrs [2]: rounding of nearest (ONNX nearest_mode) */
#define RLX_RESIZE_ROUND_PREFER_FLOOR 0
#define RLX_RESIZE_ROUND_PREFER_CEIL 1
#define RLX_RESIZE_FLOOR 2
#define RLX_RESIZE_CEIL 3

#define RLX_GELU_ERF 0
#define RLX_GELU_TANH 1

/* Defaults of the since-1.4 float attributes, so backends agree. */
#define RLX_LEAKY_RELU_ALPHA_DEFAULT 0.01
#define RLX_ELU_ALPHA_DEFAULT 1.0
#define RLX_SELU_ALPHA_DEFAULT 1.67326319217681884765625
#define RLX_SELU_GAMMA_DEFAULT 1.05070102214813232421875
#define RLX_HARD_SIGMOID_ALPHA_DEFAULT 0.2
#define RLX_HARD_SIGMOID_BETA_DEFAULT 0.5

/* pad modes (since 1.4) */
#define RLX_PAD_CONSTANT 0
#define RLX_PAD_REFLECT 1 /* mirror, edge not repeated */
#define RLX_PAD_EDGE 2    /* repeat the edge element */
#define RLX_PAD_WRAP 3    /* continue from the other end */

/* scatter reductions (since 1.4) */
#define RLX_REDUCTION_NONE 0 /* the last write wins */
#define RLX_REDUCTION_ADD 1
#define RLX_REDUCTION_MUL 2
#define RLX_REDUCTION_MAX 3
#define RLX_REDUCTION_MIN 4

/* bit_shift int_attrs [0] (since 1.4) */
#define RLX_BIT_SHIFT_LEFT 0
#define RLX_BIT_SHIFT_RIGHT 1

/* grid_sample int_attrs [0] mode and [1] padding (since 1.4) */
#define RLX_GRID_SAMPLE_LINEAR 0
#define RLX_GRID_SAMPLE_NEAREST 1
#define RLX_GRID_SAMPLE_CUBIC 2
#define RLX_GRID_SAMPLE_ZEROS 0
#define RLX_GRID_SAMPLE_BORDER 1
#define RLX_GRID_SAMPLE_REFLECTION 2

#endif /* RLX_OPS_H */
