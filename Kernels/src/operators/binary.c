/*
 * The exported binary arithmetic with broadcasting: check the shapes, merge
 * dimensions that broadcast alike, and run rows of one contiguous inner loop
 * (vector-vector, vector-scalar or scalar-vector) in parallel.
 *
 * Merging turns the common cases into one or few long loops: equal shapes
 * become one vector-vector loop over everything; a scalar operand one
 * vector-scalar loop; [N,C,H,W] with [1,C,1,1] becomes dimensions
 * N (b broadcast) × C (both) × H·W (b broadcast): rows of a vector-scalar
 * loop over H·W with b's value for the channel.
 */
#include "../configs/config.h"

#include <string.h>

enum { max_rank = FOVEA_ELEMENTWISE_MAX_RANK };

/* The merged iteration space: dims dimensions, the last one the inner loop. */
typedef struct broadcast_plan {
    size_t dims;
    size_t extent[max_rank];
    size_t a_stride[max_rank]; /* in floats; 0 where a is broadcast */
    size_t b_stride[max_rank];
    fovea_binary_form form;
    size_t a_count, b_count, y_count;
} broadcast_plan;

/* The product of `rank` extents, 0 if one is 0; *overflow set if the byte count does not fit. */
static size_t element_count(size_t rank, const size_t *shape, int *overflow) {
    for (size_t i = 0; i < rank; i++) {
        if (shape[i] == 0) return 0;
    }
    size_t n = 1, bytes = 0;
    for (size_t i = 0; i < rank; i++) {
        if (__builtin_mul_overflow(n, shape[i], &n)) {
            *overflow = 1;
            return 0;
        }
    }
    if (__builtin_mul_overflow(n, sizeof(float), &bytes) || bytes > (size_t)PTRDIFF_MAX) *overflow = 1;
    return n;
}

static fovea_status plan_broadcast(size_t a_rank, const size_t *a_shape, size_t b_rank, const size_t *b_shape,
                                   size_t y_rank, const size_t *y_shape, broadcast_plan *plan) {
    memset(plan, 0, sizeof *plan);
    if (a_rank > max_rank || b_rank > max_rank || y_rank > max_rank) return FOVEA_STATUS_INVALID_PARAMETER;
    if ((a_rank > 0 && a_shape == NULL) || (b_rank > 0 && b_shape == NULL) || (y_rank > 0 && y_shape == NULL)) {
        return FOVEA_STATUS_NULL_POINTER;
    }
    if (y_rank != (a_rank > b_rank ? a_rank : b_rank)) return FOVEA_STATUS_INVALID_PARAMETER;

    /* Left-pad a and b to y's rank; check every dimension broadcasts to y's. */
    size_t a_dims[max_rank], b_dims[max_rank];
    for (size_t i = 0; i < y_rank; i++) {
        const size_t ad = i < y_rank - a_rank ? 1 : a_shape[i - (y_rank - a_rank)];
        const size_t bd = i < y_rank - b_rank ? 1 : b_shape[i - (y_rank - b_rank)];
        size_t expected;
        if (ad == bd || bd == 1) expected = ad;
        else if (ad == 1) expected = bd;
        else return FOVEA_STATUS_INVALID_PARAMETER;
        if (y_shape[i] != expected) return FOVEA_STATUS_INVALID_PARAMETER;
        a_dims[i] = ad;
        b_dims[i] = bd;
    }
    int overflow = 0;
    plan->a_count = element_count(a_rank, a_shape, &overflow);
    plan->b_count = element_count(b_rank, b_shape, &overflow);
    plan->y_count = element_count(y_rank, y_shape, &overflow);
    if (overflow) return FOVEA_STATUS_TOO_LARGE;
    if (plan->y_count == 0) return FOVEA_STATUS_OK;

    /* Drop size-1 dimensions of y; merge neighbours where a and b broadcast alike. */
    int a_broadcast[max_rank], b_broadcast[max_rank];
    size_t dims = 0;
    for (size_t i = 0; i < y_rank; i++) {
        if (y_shape[i] == 1) continue;
        const int ab = a_dims[i] == 1, bb = b_dims[i] == 1;
        if (dims > 0 && a_broadcast[dims - 1] == ab && b_broadcast[dims - 1] == bb) {
            plan->extent[dims - 1] *= y_shape[i];
        } else {
            plan->extent[dims] = y_shape[i];
            a_broadcast[dims] = ab;
            b_broadcast[dims] = bb;
            dims++;
        }
    }
    if (dims == 0) { /* one element */
        plan->extent[0] = 1;
        a_broadcast[0] = b_broadcast[0] = 0;
        dims = 1;
    }
    plan->dims = dims;
    size_t a_step = 1, b_step = 1;
    for (size_t i = dims; i-- > 0;) {
        plan->a_stride[i] = a_broadcast[i] ? 0 : a_step;
        plan->b_stride[i] = b_broadcast[i] ? 0 : b_step;
        if (!a_broadcast[i]) a_step *= plan->extent[i];
        if (!b_broadcast[i]) b_step *= plan->extent[i];
    }
    plan->form = a_broadcast[dims - 1] ? FOVEA_BINARY_SV : b_broadcast[dims - 1] ? FOVEA_BINARY_VS : FOVEA_BINARY_VV;
    return FOVEA_STATUS_OK;
}

/*
 * Runs virtual rows [v_begin, v_end): virtual row v is chunk v % chunks of
 * output row v / chunks (an output row is one run of the inner dimension).
 */
static void run_rows(const broadcast_plan *plan, size_t chunks, size_t chunk_length, size_t v_begin, size_t v_end,
                     fovea_binary_fn run, fovea_binary_op op, fovea_epilogue_class kind, const fovea_epilogue *e,
                     const float *a, const float *b, float *y) {
    if (v_begin >= v_end) return;
    const size_t outer_dims = plan->dims - 1, inner = plan->extent[outer_dims];
    size_t row = v_begin / chunks, chunk = v_begin % chunks;
    size_t digit[max_rank] = {0}, a_offset = 0, b_offset = 0;
    size_t rest = row;
    for (size_t d = outer_dims; d-- > 0;) {
        digit[d] = rest % plan->extent[d];
        rest /= plan->extent[d];
        a_offset += digit[d] * plan->a_stride[d];
        b_offset += digit[d] * plan->b_stride[d];
    }
    for (size_t v = v_begin; v < v_end; v++) {
        const size_t start = chunk * chunk_length;
        const size_t length = inner - start < chunk_length ? inner - start : chunk_length;
        const float *pa = a + a_offset + (plan->form == FOVEA_BINARY_SV ? 0 : start);
        const float *pb = b + b_offset + (plan->form == FOVEA_BINARY_VS ? 0 : start);
        run(op, plan->form, kind, length, pa, pb, y + row * inner + start, e);
        if (++chunk < chunks) continue;
        chunk = 0;
        row++;
        for (size_t d = outer_dims; d-- > 0;) {
            a_offset += plan->a_stride[d];
            b_offset += plan->b_stride[d];
            if (++digit[d] < plan->extent[d]) break;
            a_offset -= plan->a_stride[d] * plan->extent[d];
            b_offset -= plan->b_stride[d] * plan->extent[d];
            digit[d] = 0;
        }
    }
}

/* The first of `total` items in share `part` of `parts` equal shares (no overflow). */
static size_t share_start(size_t total, size_t parts, size_t part) {
    const size_t extra = total % parts;
    return total / parts * part + (part < extra ? part : extra);
}

/* One call's parts (equal shares of row chunks), shared out by fovea_parallel_for. */
typedef struct binary_job {
    const broadcast_plan *plan;
    size_t chunks, chunk_length, total, parts;
    fovea_binary_fn run;
    fovea_binary_op op;
    fovea_epilogue_class kind;
    const fovea_epilogue *epilogue;
    const float *a, *b;
    float *y;
} binary_job;

static void binary_parts(void *context, size_t first, size_t last) {
    const binary_job *j = (const binary_job *)context;
    for (size_t part = first; part < last; part++) {
        run_rows(j->plan, j->chunks, j->chunk_length, share_start(j->total, j->parts, part),
                 share_start(j->total, j->parts, part + 1), j->run, j->op, j->kind, j->epilogue, j->a, j->b, j->y);
    }
}

fovea_status fovea_binary_f32(fovea_binary_op op, size_t a_rank, const size_t *a_shape, const float *a,
                              size_t b_rank, const size_t *b_shape, const float *b, size_t y_rank,
                              const size_t *y_shape, float *y, const fovea_activation *activation, const fovea_threadpool *threadpool) {
    if ((unsigned)op > (unsigned)FOVEA_BINARY_POW) return FOVEA_STATUS_INVALID_PARAMETER;
    if (activation != NULL && (unsigned)activation->kind > (unsigned)FOVEA_ACTIVATION_LEAKY_RELU) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    broadcast_plan plan;
    const fovea_status status = plan_broadcast(a_rank, a_shape, b_rank, b_shape, y_rank, y_shape, &plan);
    if (status != FOVEA_STATUS_OK || plan.y_count == 0) return status;
    if (a == NULL || b == NULL || y == NULL) return FOVEA_STATUS_NULL_POINTER;
    /* In place only over an input of y's shape; no partial overlap. */
    if (y == a ? plan.a_count != plan.y_count : fovea_ranges_overlap(y, plan.y_count, a, plan.a_count)) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    if (y == b ? plan.b_count != plan.y_count : fovea_ranges_overlap(y, plan.y_count, b, plan.b_count)) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }

    const fovea_binary_fn run = fovea_elementwise_config_active()->binary;
    const fovea_epilogue epilogue = fovea_epilogue_of(activation);
    const fovea_epilogue_class kind = fovea_epilogue_class_of(activation);
    const size_t inner = plan.extent[plan.dims - 1];
    const size_t rows = plan.y_count / inner;
    const int t = fovea_threads_for(threadpool, (double)plan.y_count);

    /* Split long rows into chunks (multiples of 16 floats, at least 1024) when rows are too few to share. */
    size_t chunks = 1, chunk_length = inner;
    if (t > 1 && rows < 4 * (size_t)t) {
        const size_t wanted = (4 * (size_t)t + rows - 1) / rows;
        chunk_length = (inner + wanted - 1) / wanted;
        chunk_length = (chunk_length + 15) / 16 * 16;
        if (chunk_length < 1024) chunk_length = 1024;
        if (chunk_length > inner) chunk_length = inner;
        chunks = (inner + chunk_length - 1) / chunk_length;
    }
    const binary_job job = {&plan, chunks, chunk_length, rows * chunks, (size_t)t, run, op, kind, &epilogue, a, b, y};
    fovea_parallel_for(threadpool, t, (size_t)t, binary_parts, (void *)&job);
    return FOVEA_STATUS_OK;
}
