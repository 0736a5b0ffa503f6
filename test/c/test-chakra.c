/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of the Chakra ET reader: the traces shipped in data/chakra (ASTRA-sim's
 * microbenchmark shape, a small training job), the malformed folders test/make-chakra-traces.sh
 * writes (DDNN_CHAKRA_TRACES), and hand-made bytes for the parser alone.
 */
#include "ddnn-chakra.h"
#include "ddnn-unit.h"

#include <stdlib.h>

static const char* data_dir = DDNN_DATA_DIR;
static const char* traces_dir = DDNN_CHAKRA_TRACES;

static int
read_folder(const char* base, const char* name, ddnn_chakra_trace** t, char* file, ddnn_diag* diag)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", base, name);
    memset(diag, 0, sizeof *diag);
    return ddnn_chakra_read_folder(t, path, file, 512, diag);
}

/* ASTRA-sim's microbenchmark: one 1 MiB all-reduce per rank, no compute. A ring all-reduce of
 * S bytes over N ranks sends S/N bytes in each of N-1 reduce-scatter and N-1 all-gather steps:
 * 2 (N-1) / N x S per rank. */
static void
microbenchmark_bytes_from_first_principles(void)
{
    static const struct
    {
        const char* name;
        uint32_t ranks;
        double bytes;
    } cases[] = {{"chakra/allreduce-4", 4, 1572864.0},
                 {"chakra/allreduce-8", 8, 1835008.0},
                 {"chakra/allreduce-16", 16, 1966080.0}};
    size_t i;
    for (i = 0; i < sizeof cases / sizeof *cases; i++)
    {
        ddnn_chakra_trace* t = NULL;
        ddnn_diag diag;
        char file[512];
        int rc = read_folder(data_dir, cases[i].name, &t, file, &diag);
        CHECK(rc == DDNN_OK);
        if (rc != DDNN_OK)
        {
            fprintf(stderr, "%s: %s\n", file, diag.message);
            continue;
        }
        CHECK_U64(ddnn_chakra_trace_ranks(t), cases[i].ranks);
        CHECK_U64(ddnn_profile_layer_count(ddnn_chakra_trace_profile(t)), 1);
        CHECK_U64(ddnn_profile_total_bytes(ddnn_chakra_trace_profile(t)), 1048576);
        CHECK_U64(ddnn_profile_compute_ns(ddnn_chakra_trace_profile(t)), 0);
        CHECK_NEAR(ddnn_chakra_trace_expected_bytes_per_worker(t), cases[i].bytes, 0);
        CHECK_NEAR(ddnn_chakra_trace_expected_bytes_per_worker(t),
                   2.0 * (cases[i].ranks - 1) / cases[i].ranks * 1048576,
                   1e-6);
        ddnn_chakra_trace_free(t);
    }
}

/* The training shape maps back to the profile it was written from (data/chakra/training-4.csv). */
static void
training_trace_is_its_profile(void)
{
    ddnn_chakra_trace* t = NULL;
    ddnn_profile* csv = NULL;
    ddnn_diag diag;
    char file[512], path[512];
    size_t l;
    CHECK(read_folder(data_dir, "chakra/training-4", &t, file, &diag) == DDNN_OK);
    snprintf(path, sizeof path, "%s/chakra/training-4.csv", data_dir);
    CHECK(ddnn_profile_read_file(&csv, path, &diag) == DDNN_OK);
    if (!t || !csv)
    {
        ddnn_chakra_trace_free(t);
        ddnn_profile_free(csv);
        return;
    }
    CHECK_U64(ddnn_chakra_trace_ranks(t), 4);
    CHECK_U64(ddnn_profile_layer_count(ddnn_chakra_trace_profile(t)), 3);
    for (l = 0; l < 3; l++)
    {
        const ddnn_layer* a = ddnn_profile_layer(ddnn_chakra_trace_profile(t), l);
        const ddnn_layer* b = ddnn_profile_layer(csv, l);
        CHECK_U64(a->param_bytes, b->param_bytes);
        CHECK_U64(a->forward_ns, b->forward_ns);
        CHECK_U64(a->backward_ns, b->backward_ns);
    }
    CHECK_NEAR(ddnn_chakra_trace_expected_bytes_per_worker(t), 1.5 * 750000, 1e-6);
    ddnn_profile_free(ddnn_chakra_trace_take_profile(t));
    CHECK(ddnn_chakra_trace_profile(t) == NULL);
    ddnn_chakra_trace_free(t);
    ddnn_profile_free(csv);
}

/* Each malformed folder: refused with code, naming file (a suffix of it) and saying message. */
static void
expect_refused(const char* name, int code, const char* file_suffix, const char* message)
{
    ddnn_chakra_trace* t = NULL;
    ddnn_diag diag;
    char file[512];
    int rc = read_folder(traces_dir, name, &t, file, &diag);
    size_t fl = strlen(file), sl = strlen(file_suffix);
    CHECK(t == NULL);
    if (rc != code || fl < sl || strcmp(file + fl - sl, file_suffix) != 0
        || !strstr(diag.message, message))
    {
        unit_checks_failed++;
        fprintf(stderr,
                "%s: got rc=%d file='%s' message='%s', expected rc=%d file '...%s' message '%s'\n",
                name,
                rc,
                file,
                diag.message,
                code,
                file_suffix,
                message);
    }
}

static void
refuses_malformed_folders(void)
{
    expect_refused("truncated", DDNN_ERR_SYNTAX, "/trace.1.et", "truncated: message 2");
    expect_refused("oversized", DDNN_ERR_TOO_LARGE, "/trace.1.et", "more than 1048576");
    expect_refused("not-chakra", DDNN_ERR_SYNTAX, "/trace.1.et", "message 1");
    expect_refused("cycle", DDNN_ERR_ORDER, "/trace.1.et", "form a cycle");
    expect_refused(
        "unknown-type", DDNN_ERR_RANGE, "/trace.1.et", "node 99 'load': node type MEM_LOAD_NODE");
    expect_refused(
        "all-gather", DDNN_ERR_RANGE, "/trace.1.et", "ALL_GATHER (2): ddnn models all-reduce only");
    expect_refused("no-comm-size", DDNN_ERR_RANGE, "/trace.1.et", "comm_size attribute");
    expect_refused("missing-dep", DDNN_ERR_MISSING, "/trace.1.et", "depends on node 42");
    expect_refused("duplicate-id", DDNN_ERR_DUPLICATE, "/trace.1.et", "node id 1 appears twice");
    expect_refused("disagree-size",
                   DDNN_ERR_RANGE,
                   "/trace.0.et and trace.1.et",
                   "1048576 bytes against 2097152");
    expect_refused("disagree-group",
                   DDNN_ERR_RANGE,
                   "/trace.0.et and trace.1.et",
                   "'pg_name pg0' against 'pg_name pg1'");
    expect_refused("disagree-count",
                   DDNN_ERR_MISSING,
                   "/trace.0.et and trace.1.et",
                   "1 all-reduce nodes against 2");
    expect_refused("missing-rank", DDNN_ERR_MISSING, "/trace.1.et", "missing");
    expect_refused("stray-file", DDNN_ERR_SYNTAX, "/README", "not a trace file");
    expect_refused("empty", DDNN_ERR_EMPTY, "/empty", "no <prefix>.<rank>.et files");
    expect_refused("nonexistent", DDNN_ERR_IO, "/nonexistent", "cannot open");
}

/* A rejection with code, naming field (the input is binary: no line). */
static void
expect_rejected(int rc, const ddnn_diag* diag, const char* what, int code, const char* field)
{
    if (rc != code || diag->line != 0 || strcmp(diag->field, field) != 0
        || diag->message[0] == '\0')
    {
        unit_checks_failed++;
        fprintf(stderr,
                "%s: got rc=%d field='%s' message='%s', expected rc=%d field='%s'\n",
                what,
                rc,
                diag->field,
                diag->message,
                code,
                field);
    }
}

/* The parser alone, on bytes: framing errors, unknown fields skipped, no all-reduce. */
static void
parser_on_bytes(void)
{
    /* GlobalMetadata "v", then a node with id 1, type COMM_COLL_NODE, start_time_micros (field
     * 6, not in ddnn's schema: skipped), attrs comm_type 0 and comm_size 8 (uint64_val). */
    static const unsigned char good[]
        = {0x03, 0x0a, 0x01, 'v',                    /* metadata */
           0x24, 0x08, 0x01, 0x18, 0x07, 0x30, 0x05, /* id, type, start */
           0x52, 0x0d, 0x0a, 0x09, 'c',  'o',  'm',  'm', '_', 't', 'y', 'p', 'e', 0x48, 0x00,
           0x52, 0x0d, 0x0a, 0x09, 'c',  'o',  'm',  'm', '_', 's', 'i', 'z', 'e', 0x68, 0x08};
    static const unsigned char metadata_only[] = {0x03, 0x0a, 0x01, 'v'};
    static const unsigned char unterminated_length[] = {0x03, 0x0a, 0x01, 'v', 0x80};
    static const unsigned char bad_protobuf[] = {0x03, 0x0a, 0x01, 'v', 0x02, 0x0f, 0xff};
    ddnn_chakra_rank* r = NULL;
    ddnn_diag diag;
    memset(&diag, 0, sizeof diag);
    CHECK(ddnn_chakra_parse_rank(&r, (const char*)good, sizeof good, &diag) == DDNN_OK);
    if (r)
    {
        CHECK_U64(ddnn_chakra_rank_collective_count(r), 1);
        CHECK_U64(ddnn_chakra_rank_collective_bytes(r, 0), 8);
        ddnn_chakra_rank_free(r);
        r = NULL;
    }
    expect_rejected(
        ddnn_chakra_parse_rank(&r, (const char*)metadata_only, sizeof metadata_only, &diag),
        &diag,
        "metadata only",
        DDNN_ERR_EMPTY,
        "type");
    expect_rejected(ddnn_chakra_parse_rank(&r, "", 0, &diag), &diag, "empty", DDNN_ERR_EMPTY, "");
    expect_rejected(ddnn_chakra_parse_rank(
                        &r, (const char*)unterminated_length, sizeof unterminated_length, &diag),
                    &diag,
                    "unterminated length",
                    DDNN_ERR_SYNTAX,
                    "");
    expect_rejected(
        ddnn_chakra_parse_rank(&r, (const char*)bad_protobuf, sizeof bad_protobuf, &diag),
        &diag,
        "bad protobuf",
        DDNN_ERR_SYNTAX,
        "");
    CHECK(r == NULL);
}

/* A small protobuf writer for hand-made traces: varints, fields, length-prefixed messages. */
typedef struct
{
    unsigned char bytes[4096];
    size_t len;
} buffer;

static void
put_varint(buffer* b, uint64_t v)
{
    do
    {
        b->bytes[b->len++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
}

static void
put_bytes(buffer* b, unsigned field, const void* data, size_t len)
{
    put_varint(b, field << 3 | 2);
    put_varint(b, len);
    memcpy(b->bytes + b->len, data, len);
    b->len += len;
}

/* An AttributeProto: name, and an integer in oneof field `field` (7 int32, 9 int64, 13 uint64). */
static void
put_attribute(buffer* node, const char* name, unsigned field, uint64_t value)
{
    buffer a = {{0}, 0};
    put_bytes(&a, 1, name, strlen(name));
    put_varint(&a, field << 3);
    put_varint(&a, value);
    put_bytes(node, 10, a.bytes, a.len);
}

/* A Node: id, type, duration, data and control dependencies (0-terminated lists), a collective's
 * comm_type (in oneof field type_field) and comm_size when size > 0. */
static void
put_node(buffer* file,
         uint64_t id,
         int type,
         uint64_t micros,
         const uint64_t* data,
         const uint64_t* ctrl,
         unsigned type_field,
         uint64_t size)
{
    buffer n = {{0}, 0}, list = {{0}, 0};
    put_varint(&n, 1 << 3);
    put_varint(&n, id);
    put_bytes(&n, 2, "n", 1);
    put_varint(&n, 3 << 3);
    put_varint(&n, (uint64_t)type);
    while (ctrl && *ctrl)
        put_varint(&list, *ctrl++);
    if (list.len)
        put_bytes(&n, 4, list.bytes, list.len);
    list.len = 0;
    while (data && *data)
        put_varint(&list, *data++);
    if (list.len)
        put_bytes(&n, 5, list.bytes, list.len);
    if (micros)
    {
        put_varint(&n, 7 << 3);
        put_varint(&n, micros);
    }
    if (size)
    {
        put_attribute(&n, "comm_type", type_field, 0);
        put_attribute(&n, "comm_size", 9, size);
    }
    put_varint(file, n.len);
    memcpy(file->bytes + file->len, n.bytes, n.len);
    file->len += n.len;
}

/*
 * The mapping rule on a graph with a metadata node, control dependencies, a compute node two
 * all-reduces depend on, comm_type as int32 and uint64, and 3 forward nodes over 2 layers:
 *   1 meta; 2 fwd 10 us; 3 fwd 20 us (ctrl 2); 4 fwd 30 us (data 3); 5 bwd 40 us (data 4);
 *   6 all-reduce 100 B (data 5); 7 bwd 50 us (ctrl 6); 8 all-reduce 200 B (data 7, 5).
 * Topological order 1..8: all-reduce 6 is the last layer (1), 8 the first (0); 5 counts for 6
 * only; forward nodes 2, 3, 4 go to layers floor(j x 2 / 3) = 0, 0, 1.
 */
static void
mapping_rule(void)
{
    static const uint64_t d2[] = {2, 0}, d3[] = {3, 0}, d4[] = {4, 0}, d5[] = {5, 0}, d6[] = {6, 0},
                          d75[] = {7, 5, 0};
    buffer file = {{0}, 0};
    const unsigned char metadata[] = {0x0a, 0x01, 'v'};
    ddnn_chakra_rank* r = NULL;
    ddnn_chakra_rank* ranks[2];
    ddnn_chakra_trace* t = NULL;
    ddnn_diag diag;
    size_t first, second;
    put_varint(&file, sizeof metadata);
    memcpy(file.bytes + file.len, metadata, sizeof metadata);
    file.len += sizeof metadata;
    put_node(&file, 1, 1, 0, NULL, NULL, 0, 0);
    put_node(&file, 2, 4, 10, NULL, NULL, 0, 0);
    put_node(&file, 3, 4, 20, NULL, d2, 0, 0);
    put_node(&file, 4, 4, 30, d3, NULL, 0, 0);
    put_node(&file, 5, 4, 40, d4, NULL, 0, 0);
    put_node(&file, 6, 7, 0, d5, NULL, 7, 100);
    put_node(&file, 7, 4, 50, NULL, d6, 0, 0);
    put_node(&file, 8, 7, 0, d75, NULL, 13, 200);
    memset(&diag, 0, sizeof diag);
    CHECK(ddnn_chakra_parse_rank(&r, (const char*)file.bytes, file.len, &diag) == DDNN_OK);
    if (!r)
    {
        fprintf(stderr, "mapping_rule: %s\n", diag.message);
        return;
    }
    CHECK_U64(ddnn_chakra_rank_collective_count(r), 2);
    CHECK_U64(ddnn_chakra_rank_collective_bytes(r, 0), 100);
    CHECK_U64(ddnn_chakra_rank_collective_bytes(r, 1), 200);
    ranks[0] = ranks[1] = r;
    CHECK(ddnn_chakra_join(&t, ranks, 2, &first, &second, &diag) == DDNN_OK);
    if (t)
    {
        const ddnn_profile* p = ddnn_chakra_trace_profile(t);
        CHECK_U64(ddnn_profile_layer(p, 0)->param_bytes, 200);
        CHECK_U64(ddnn_profile_layer(p, 0)->forward_ns, 30000);
        CHECK_U64(ddnn_profile_layer(p, 0)->backward_ns, 50000);
        CHECK_U64(ddnn_profile_layer(p, 1)->param_bytes, 100);
        CHECK_U64(ddnn_profile_layer(p, 1)->forward_ns, 30000);
        CHECK_U64(ddnn_profile_layer(p, 1)->backward_ns, 40000);
        CHECK_NEAR(ddnn_chakra_trace_expected_bytes_per_worker(t), 300.0, 1e-9); /* 2 x 1/2 x 300 */
        ddnn_chakra_trace_free(t);
    }
    ddnn_chakra_rank_free(r);
}

/* A profile of layers without compute is accepted, and refuses to be scaled. */
static void
profile_from_layers(void)
{
    ddnn_layer layers[2] = {{0, 100, 0, 0}, {0, 200, 0, 0}};
    ddnn_profile* p = NULL;
    ddnn_diag diag;
    uint64_t f[2], b[2];
    memset(&diag, 0, sizeof diag);
    CHECK(ddnn_profile_from_layers(&p, layers, 2, &diag) == DDNN_OK);
    if (p)
    {
        CHECK_U64(ddnn_profile_layer(p, 1)->index, 1);
        CHECK_U64(ddnn_profile_total_bytes(p), 300);
        CHECK(ddnn_profile_scale(p, 1000, f, b) == DDNN_ERR_INVALID);
        ddnn_profile_free(p);
    }
    layers[1].param_bytes = 0;
    p = NULL;
    expect_rejected(ddnn_profile_from_layers(&p, layers, 2, &diag),
                    &diag,
                    "zero bytes",
                    DDNN_ERR_RANGE,
                    "param_bytes");
    CHECK(p == NULL);
}

int
main(int argc, char** argv)
{
    if (argc > 1)
        data_dir = argv[1];
    if (argc > 2)
        traces_dir = argv[2];
    RUN(microbenchmark_bytes_from_first_principles);
    RUN(training_trace_is_its_profile);
    RUN(refuses_malformed_folders);
    RUN(parser_on_bytes);
    RUN(mapping_rule);
    RUN(profile_from_layers);
    return UNIT_REPORT();
}
