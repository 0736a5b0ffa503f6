/* SPDX-License-Identifier: GPL-2.0-only */
#if !defined(_POSIX_C_SOURCE) && !defined(_GNU_SOURCE)
#define _POSIX_C_SOURCE 200809L /* strdup, opendir */
#endif
#include "ddnn-chakra.h"

#include "ddnn-array.h"
#include "ddnn-chakra-et.pb-c.h"
#include "ddnn-file.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Chakra's NodeType and CollectiveCommType values (model/ddnn-chakra-et.proto). */
static const char* const node_type_names[] = {"INVALID_NODE",
                                              "METADATA_NODE",
                                              "MEM_LOAD_NODE",
                                              "MEM_STORE_NODE",
                                              "COMP_NODE",
                                              "COMM_SEND_NODE",
                                              "COMM_RECV_NODE",
                                              "COMM_COLL_NODE",
                                              "STORAGE_NODE",
                                              "BATCH_NODE",
                                              "CHECKPOINT_NODE"};
static const char* const comm_type_names[] = {"ALL_REDUCE",
                                              "REDUCE",
                                              "ALL_GATHER",
                                              "GATHER",
                                              "SCATTER",
                                              "BROADCAST",
                                              "ALL_TO_ALL",
                                              "REDUCE_SCATTER",
                                              "REDUCE_SCATTER_BLOCK",
                                              "BARRIER"};

#define NAME_CHARS  41 /* a node's name as diagnostics quote it, NUL included */
#define GROUP_CHARS 64 /* a collective's group as ranks compare it */

enum node_kind
{
    KIND_NONE, /* METADATA_NODE: ordered, carries no work */
    KIND_COMPUTE,
    KIND_ALLREDUCE
};

typedef struct
{
    uint64_t id;
    char name[NAME_CHARS];
    int kind;
    uint64_t duration_ns; /* compute */
    uint64_t comm_size;   /* all-reduce */
    char group[GROUP_CHARS];
    size_t first_dep, deps; /* into the rank's dependency array (node ids, then indices) */
} node;

/* What a rank's trace keeps once mapped: its collectives in topological order and the layers. */
typedef struct
{
    uint64_t id;
    char name[NAME_CHARS];
    uint64_t bytes;
    char group[GROUP_CHARS];
} collective;

struct ddnn_chakra_rank
{
    collective* collectives; /* topological order = backward order */
    ddnn_layer* layers;      /* layer order: layer i is collectives[count - 1 - i] */
    size_t count;
};

struct ddnn_chakra_trace
{
    ddnn_profile* profile;
    uint32_t ranks;
    double expected_bytes;
};

static void
copy_name(char* out, const char* name)
{
    size_t n = name ? strlen(name) : 0;
    if (n >= NAME_CHARS)
        n = NAME_CHARS - 1;
    memcpy(out, name ? name : "", n);
    out[n] = '\0';
}

/* Reads a varint at *pos: 0, or -1 when it runs past the end or past 10 bytes. */
static int
read_varint(const unsigned char* p, size_t len, size_t* pos, uint64_t* value)
{
    uint64_t v = 0;
    unsigned shift = 0;
    while (*pos < len && shift < 64)
    {
        unsigned char b = p[(*pos)++];
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
        {
            *value = v;
            return 0;
        }
        shift += 7;
    }
    return -1;
}

/* An attribute's integer value, whichever integer field of the oneof holds it: 0, or -1. */
static int
attribute_integer(const ChakraProtoMsg__AttributeProto* a, int64_t* value)
{
    switch (a->value_case)
    {
        case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT32_VAL:
            *value = a->int32_val;
            return 0;
        case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT64_VAL:
            *value = a->int64_val;
            return 0;
        case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_UINT32_VAL:
            *value = a->uint32_val;
            return 0;
        case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_UINT64_VAL:
            if (a->uint64_val > (uint64_t)INT64_MAX)
                return -1;
            *value = (int64_t)a->uint64_val;
            return 0;
        case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_SINT32_VAL:
            *value = a->sint32_val;
            return 0;
        case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_SINT64_VAL:
            *value = a->sint64_val;
            return 0;
        default:
            return -1;
    }
}

static const ChakraProtoMsg__AttributeProto*
find_attribute(const ChakraProtoMsg__Node* n, const char* name)
{
    size_t i;
    for (i = 0; i < n->n_attr; i++)
        if (n->attr[i] && n->attr[i]->name && strcmp(n->attr[i]->name, name) == 0)
            return n->attr[i];
    return NULL;
}

/* The collective's group as the ranks must agree on it: pg_name and involved_dim, if given. */
static void
group_of(const ChakraProtoMsg__Node* n, char* out)
{
    const ChakraProtoMsg__AttributeProto* pg = find_attribute(n, "pg_name");
    const ChakraProtoMsg__AttributeProto* dims = find_attribute(n, "involved_dim");
    size_t used = 0, i;
    out[0] = '\0';
    if (pg && pg->value_case == CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_STRING_VAL)
        used = (size_t)snprintf(out, GROUP_CHARS, "pg_name %.40s", pg->string_val);
    if (dims && dims->value_case == CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_BOOL_LIST
        && dims->bool_list)
    {
        if (used < GROUP_CHARS - 1)
            used += (size_t)snprintf(
                out + used, GROUP_CHARS - used, "%sinvolved_dim ", used ? ", " : "");
        for (i = 0; i < dims->bool_list->n_values && used < GROUP_CHARS - 1; i++)
            out[used++] = dims->bool_list->values[i] ? '1' : '0';
        if (used >= GROUP_CHARS)
            used = GROUP_CHARS - 1;
        out[used] = '\0';
    }
}

/* Fills nd from a decoded node, or refuses it naming the node. */
static int
take_node(node* nd, const ChakraProtoMsg__Node* n, ddnn_diag* diag)
{
    const ChakraProtoMsg__AttributeProto* a;
    int64_t value;
    memset(nd, 0, sizeof *nd);
    nd->id = n->id;
    copy_name(nd->name, n->name);
    switch ((int)n->type)
    {
        case CHAKRA_PROTO_MSG__NODE_TYPE__METADATA_NODE:
            nd->kind = KIND_NONE;
            return DDNN_OK;
        case CHAKRA_PROTO_MSG__NODE_TYPE__COMP_NODE:
            /* duration_micros, in ns under the profile's bound */
            if (n->duration_micros > DDNN_PROFILE_MAX_COMPUTE_NS / 1000)
                return ddnn_diag_set(diag,
                                     DDNN_ERR_RANGE,
                                     0,
                                     "duration_micros",
                                     "node %llu '%s': %llu us, more than 10^12 (10^15 ns)",
                                     (unsigned long long)nd->id,
                                     nd->name,
                                     (unsigned long long)n->duration_micros);
            nd->kind = KIND_COMPUTE;
            nd->duration_ns = n->duration_micros * 1000;
            return DDNN_OK;
        case CHAKRA_PROTO_MSG__NODE_TYPE__COMM_COLL_NODE:
            a = find_attribute(n, "comm_type");
            if (!a || attribute_integer(a, &value) < 0)
                return ddnn_diag_set(diag,
                                     DDNN_ERR_MISSING,
                                     0,
                                     "comm_type",
                                     "node %llu '%s': a collective without an integer comm_type "
                                     "attribute",
                                     (unsigned long long)nd->id,
                                     nd->name);
            if (value != CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__ALL_REDUCE)
            {
                const char* kind
                    = value >= 0
                              && value < (int64_t)(sizeof comm_type_names / sizeof *comm_type_names)
                          ? comm_type_names[value]
                          : "unknown";
                return ddnn_diag_set(diag,
                                     DDNN_ERR_RANGE,
                                     0,
                                     "comm_type",
                                     "node %llu '%s': collective %s (%lld): ddnn models all-reduce "
                                     "only",
                                     (unsigned long long)nd->id,
                                     nd->name,
                                     kind,
                                     (long long)value);
            }
            a = find_attribute(n, "comm_size");
            if (!a || attribute_integer(a, &value) < 0 || value <= 0
                || (uint64_t)value > DDNN_PROFILE_MAX_MODEL_BYTES)
                return ddnn_diag_set(diag,
                                     DDNN_ERR_RANGE,
                                     0,
                                     "comm_size",
                                     "node %llu '%s': expected a comm_size attribute of 1 to 2^53 "
                                     "bytes",
                                     (unsigned long long)nd->id,
                                     nd->name);
            nd->kind = KIND_ALLREDUCE;
            nd->comm_size = (uint64_t)value;
            group_of(n, nd->group);
            return DDNN_OK;
        default:
            return ddnn_diag_set(
                diag,
                DDNN_ERR_RANGE,
                0,
                "type",
                "node %llu '%s': node type %s (%d): ddnn models COMP_NODE and COMM_COLL_NODE only",
                (unsigned long long)nd->id,
                nd->name,
                (int)n->type >= 0
                        && (size_t)n->type < sizeof node_type_names / sizeof *node_type_names
                    ? node_type_names[n->type]
                    : "unknown",
                (int)n->type);
    }
}

static int
compare_u64(const void* a, const void* b)
{
    uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
    return x < y ? -1 : x > y;
}

/* The first position of sorted[0..count) whose id is not below id. */
static size_t
lower_bound(const uint64_t* sorted, size_t count, uint64_t id)
{
    size_t lo = 0, hi = count;
    while (lo < hi)
    {
        size_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Index of the node with id, or -1 (ids sorted in sorted, the node of each in index_of). */
static long
lookup(const uint64_t* sorted, const size_t* index_of, size_t count, uint64_t id)
{
    size_t at = lower_bound(sorted, count, id);
    return at < count && sorted[at] == id ? (long)index_of[at] : -1;
}

typedef struct
{
    node* nodes;
    size_t count, cap;
    uint64_t* dep_ids; /* every node's dependencies (data, then control), as ids */
    size_t* deps;      /* the same as node indices, once resolved */
    size_t dep_count, dep_cap;
} graph;

static void
graph_free(graph* g)
{
    free(g->nodes);
    free(g->deps);
    free(g->dep_ids);
}

static int
add_deps(graph* g, const uint64_t* ids, size_t n, ddnn_diag* diag)
{
    if (n > DDNN_CHAKRA_MAX_DEPS - g->dep_count)
        return ddnn_diag_set(diag,
                             DDNN_ERR_TOO_LARGE,
                             0,
                             "data_deps",
                             "more than %u dependencies in all",
                             DDNN_CHAKRA_MAX_DEPS);
    if (DDNN_ARRAY_RESERVE(g->dep_ids, g->dep_cap, g->dep_count + n) != DDNN_OK)
        return ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
    if (n)
        memcpy(g->dep_ids + g->dep_count, ids, n * sizeof *ids);
    g->dep_count += n;
    return DDNN_OK;
}

/* Splits the file into messages and decodes them: the graph of the rank's nodes. */
static int
decode(graph* g, const unsigned char* p, size_t len, ddnn_diag* diag)
{
    size_t pos = 0, message = 0;
    while (pos < len)
    {
        uint64_t size;
        int rc;
        message++;
        if (read_varint(p, len, &pos, &size) < 0)
            return ddnn_diag_set(diag,
                                 DDNN_ERR_SYNTAX,
                                 0,
                                 "",
                                 "truncated: the length of message %lu runs past the end",
                                 (unsigned long)message);
        if (size > DDNN_CHAKRA_MAX_MESSAGE_BYTES)
            return ddnn_diag_set(diag,
                                 DDNN_ERR_TOO_LARGE,
                                 0,
                                 "",
                                 "message %lu declares %llu bytes, more than %u",
                                 (unsigned long)message,
                                 (unsigned long long)size,
                                 DDNN_CHAKRA_MAX_MESSAGE_BYTES);
        if (size > len - pos)
            return ddnn_diag_set(diag,
                                 DDNN_ERR_SYNTAX,
                                 0,
                                 "",
                                 "truncated: message %lu declares %llu bytes, %lu remain",
                                 (unsigned long)message,
                                 (unsigned long long)size,
                                 (unsigned long)(len - pos));
        if (message == 1)
        {
            ChakraProtoMsg__GlobalMetadata* m
                = chakra_proto_msg__global_metadata__unpack(NULL, (size_t)size, p + pos);
            if (!m)
                return ddnn_diag_set(diag,
                                     DDNN_ERR_SYNTAX,
                                     0,
                                     "",
                                     "message 1 is not a Chakra GlobalMetadata (is this a "
                                     "Chakra ET file?)");
            chakra_proto_msg__global_metadata__free_unpacked(m, NULL);
        }
        else
        {
            ChakraProtoMsg__Node* n;
            if (g->count == DDNN_CHAKRA_MAX_NODES)
                return ddnn_diag_set(
                    diag, DDNN_ERR_TOO_LARGE, 0, "", "more than %u nodes", DDNN_CHAKRA_MAX_NODES);
            n = chakra_proto_msg__node__unpack(NULL, (size_t)size, p + pos);
            if (!n)
                return ddnn_diag_set(diag,
                                     DDNN_ERR_SYNTAX,
                                     0,
                                     "",
                                     "message %lu is not a Chakra Node (malformed protobuf)",
                                     (unsigned long)message);
            if (DDNN_ARRAY_RESERVE(g->nodes, g->cap, g->count + 1) != DDNN_OK)
            {
                chakra_proto_msg__node__free_unpacked(n, NULL);
                return ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
            }
            rc = take_node(&g->nodes[g->count], n, diag);
            if (rc == DDNN_OK)
            {
                g->nodes[g->count].first_dep = g->dep_count;
                rc = add_deps(g, n->data_deps, n->n_data_deps, diag);
            }
            if (rc == DDNN_OK)
                rc = add_deps(g, n->ctrl_deps, n->n_ctrl_deps, diag);
            if (rc == DDNN_OK)
                g->nodes[g->count].deps = g->dep_count - g->nodes[g->count].first_dep;
            chakra_proto_msg__node__free_unpacked(n, NULL);
            if (rc < 0)
                return rc;
            g->count++;
        }
        pos += (size_t)size;
    }
    if (message == 0)
        return ddnn_diag_set(diag, DDNN_ERR_EMPTY, 0, "", "empty file (no GlobalMetadata)");
    return DDNN_OK;
}

/* Resolves dependency ids to indices: every one must name a node of the file, once. */
static int
resolve(graph* g, ddnn_diag* diag)
{
    uint64_t* sorted = malloc((g->count ? g->count : 1) * sizeof *sorted);
    size_t* index_of = malloc((g->count ? g->count : 1) * sizeof *index_of);
    size_t i, j;
    int rc = DDNN_OK;
    g->deps = malloc((g->dep_count ? g->dep_count : 1) * sizeof *g->deps);
    if (!sorted || !index_of || !g->deps)
    {
        rc = ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
        goto done;
    }
    /* The ids sorted, then each one's node. */
    for (i = 0; i < g->count; i++)
        sorted[i] = g->nodes[i].id;
    qsort(sorted, g->count, sizeof *sorted, compare_u64);
    for (i = 1; i < g->count; i++)
        if (sorted[i] == sorted[i - 1])
        {
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_DUPLICATE,
                               0,
                               "id",
                               "node id %llu appears twice",
                               (unsigned long long)sorted[i]);
            goto done;
        }
    for (i = 0; i < g->count; i++) /* ids are unique: each has one position */
        index_of[lower_bound(sorted, g->count, g->nodes[i].id)] = i;
    for (i = 0; i < g->count; i++)
    {
        const node* nd = &g->nodes[i];
        for (j = nd->first_dep; j < nd->first_dep + nd->deps; j++)
        {
            long k = lookup(sorted, index_of, g->count, g->dep_ids[j]);
            if (k < 0 || (size_t)k == i)
            {
                rc = ddnn_diag_set(diag,
                                   DDNN_ERR_MISSING,
                                   0,
                                   "data_deps",
                                   k < 0 ? "node %llu '%s': depends on node %llu, which the file "
                                           "does not hold"
                                         : "node %llu '%s': depends on itself (node %llu)",
                                   (unsigned long long)nd->id,
                                   nd->name,
                                   (unsigned long long)g->dep_ids[j]);
                goto done;
            }
            g->deps[j] = (size_t)k;
        }
    }
done:
    free(sorted);
    free(index_of);
    return rc;
}

/* Kahn's algorithm over data and control dependencies; a cycle is refused naming a node on it. */
static int
order(const graph* g, size_t* out, ddnn_diag* diag)
{
    size_t* pending = calloc(g->count ? g->count : 1, sizeof *pending);
    size_t* child_start = calloc(g->count + 1, sizeof *child_start);
    size_t* children = malloc((g->dep_count ? g->dep_count : 1) * sizeof *children);
    size_t* fill = calloc(g->count ? g->count : 1, sizeof *fill);
    size_t i, j, head = 0, tail = 0;
    int rc = DDNN_OK;
    if (!pending || !child_start || !children || !fill)
    {
        rc = ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
        goto done;
    }
    for (i = 0; i < g->count; i++)
    {
        pending[i] = g->nodes[i].deps;
        for (j = g->nodes[i].first_dep; j < g->nodes[i].first_dep + g->nodes[i].deps; j++)
            child_start[g->deps[j] + 1]++;
    }
    for (i = 0; i < g->count; i++)
        child_start[i + 1] += child_start[i];
    for (i = 0; i < g->count; i++)
        for (j = g->nodes[i].first_dep; j < g->nodes[i].first_dep + g->nodes[i].deps; j++)
        {
            size_t parent = g->deps[j];
            children[child_start[parent] + fill[parent]++] = i;
        }
    /* Ready nodes in file order first, then as they become ready: a deterministic order. */
    for (i = 0; i < g->count; i++)
        if (pending[i] == 0)
            out[tail++] = i;
    while (head < tail)
    {
        size_t v = out[head++];
        for (j = child_start[v]; j < child_start[v + 1]; j++)
            if (--pending[children[j]] == 0)
                out[tail++] = children[j];
    }
    if (tail < g->count)
    {
        /* Every node left waits on another node left: walking back count steps lands on a cycle. */
        size_t v = 0, steps;
        while (pending[v] == 0)
            v++;
        for (steps = 0; steps < g->count; steps++)
            for (j = g->nodes[v].first_dep; j < g->nodes[v].first_dep + g->nodes[v].deps; j++)
                if (pending[g->deps[j]] != 0)
                {
                    v = g->deps[j];
                    break;
                }
        rc = ddnn_diag_set(diag,
                           DDNN_ERR_ORDER,
                           0,
                           "data_deps",
                           "node %llu '%s': its dependencies form a cycle",
                           (unsigned long long)g->nodes[v].id,
                           g->nodes[v].name);
    }
done:
    free(pending);
    free(child_start);
    free(children);
    free(fill);
    return rc;
}

/* Saturates: a sum past the profile's bound is refused by ddnn_profile_from_layers. */
static uint64_t
add_ns(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* The mapping rule (doc/user.rst, "Chakra traces"), on the topological order. */
static int
map_layers(ddnn_chakra_rank* r, const graph* g, const size_t* topo, ddnn_diag* diag)
{
    size_t i, j, k = 0, unclaimed = 0, u = 0;
    char* claimed = calloc(g->count ? g->count : 1, 1);
    if (!claimed)
        return ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
    for (i = 0; i < g->count; i++)
        r->count += g->nodes[i].kind == KIND_ALLREDUCE;
    if (r->count == 0)
    {
        free(claimed);
        return ddnn_diag_set(diag,
                             DDNN_ERR_EMPTY,
                             0,
                             "type",
                             "no all-reduce node (COMM_COLL_NODE with comm_type ALL_REDUCE): "
                             "nothing for the network to carry");
    }
    r->collectives = calloc(r->count, sizeof *r->collectives);
    r->layers = calloc(r->count, sizeof *r->layers);
    if (!r->collectives || !r->layers)
    {
        free(claimed);
        return ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
    }
    /* Collectives in topological order are the backward order: the first is the last layer.
     * Each claims the compute nodes it depends on directly (once) as its backward time. */
    for (i = 0; i < g->count; i++)
    {
        const node* nd = &g->nodes[topo[i]];
        ddnn_layer* layer;
        if (nd->kind != KIND_ALLREDUCE)
            continue;
        layer = &r->layers[r->count - 1 - k];
        r->collectives[k].id = nd->id;
        memcpy(r->collectives[k].name, nd->name, NAME_CHARS);
        memcpy(r->collectives[k].group, nd->group, GROUP_CHARS);
        r->collectives[k].bytes = nd->comm_size;
        layer->param_bytes = nd->comm_size;
        for (j = nd->first_dep; j < nd->first_dep + nd->deps; j++)
        {
            size_t d = g->deps[j];
            if (g->nodes[d].kind == KIND_COMPUTE && !claimed[d])
            {
                claimed[d] = 1;
                layer->backward_ns = add_ns(layer->backward_ns, g->nodes[d].duration_ns);
            }
        }
        k++;
    }
    /* The other compute nodes are forward time, spread over layers 0..K-1 in topological order. */
    for (i = 0; i < g->count; i++)
        unclaimed += g->nodes[i].kind == KIND_COMPUTE && !claimed[i];
    for (i = 0; i < g->count; i++)
    {
        size_t v = topo[i];
        if (g->nodes[v].kind == KIND_COMPUTE && !claimed[v])
        {
            ddnn_layer* layer = &r->layers[(size_t)((uint64_t)u * r->count / unclaimed)];
            layer->forward_ns = add_ns(layer->forward_ns, g->nodes[v].duration_ns);
            u++;
        }
    }
    free(claimed);
    return DDNN_OK;
}

void
ddnn_chakra_rank_free(ddnn_chakra_rank* r)
{
    if (r)
    {
        free(r->collectives);
        free(r->layers);
        free(r);
    }
}

int
ddnn_chakra_parse_rank(ddnn_chakra_rank** out, const char* data, size_t len, ddnn_diag* diag)
{
    graph g;
    size_t* topo = NULL;
    ddnn_chakra_rank* r = calloc(1, sizeof *r);
    int rc;
    memset(&g, 0, sizeof g);
    if (!r)
        return ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
    rc = decode(&g, (const unsigned char*)data, len, diag);
    if (rc == DDNN_OK)
        rc = resolve(&g, diag);
    if (rc == DDNN_OK)
    {
        topo = malloc((g.count ? g.count : 1) * sizeof *topo);
        rc = topo ? order(&g, topo, diag)
                  : ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
    }
    if (rc == DDNN_OK)
        rc = map_layers(r, &g, topo, diag);
    free(topo);
    graph_free(&g);
    if (rc < 0)
    {
        ddnn_chakra_rank_free(r);
        return rc;
    }
    *out = r;
    return DDNN_OK;
}

size_t
ddnn_chakra_rank_collective_count(const ddnn_chakra_rank* r)
{
    return r->count;
}

uint64_t
ddnn_chakra_rank_collective_bytes(const ddnn_chakra_rank* r, size_t index)
{
    return index < r->count ? r->collectives[index].bytes : 0;
}

int
ddnn_chakra_join(ddnn_chakra_trace** out,
                 ddnn_chakra_rank* const* ranks,
                 size_t n,
                 size_t* first,
                 size_t* second,
                 ddnn_diag* diag)
{
    ddnn_chakra_trace* t;
    size_t r, k;
    int rc;
    *first = *second = n;
    if (n == 0)
        return ddnn_diag_set(diag, DDNN_ERR_EMPTY, 0, "", "no rank");
    if (n > DDNN_CHAKRA_MAX_RANKS)
        return ddnn_diag_set(diag,
                             DDNN_ERR_RANGE,
                             0,
                             "",
                             "%lu ranks, more than %u",
                             (unsigned long)n,
                             DDNN_CHAKRA_MAX_RANKS);
    for (r = 1; r < n; r++)
    {
        const ddnn_chakra_rank* a = ranks[0];
        const ddnn_chakra_rank* b = ranks[r];
        *first = 0;
        *second = r;
        if (a->count != b->count)
            return ddnn_diag_set(diag,
                                 DDNN_ERR_MISSING,
                                 0,
                                 "",
                                 "the ranks disagree: %lu all-reduce nodes against %lu",
                                 (unsigned long)a->count,
                                 (unsigned long)b->count);
        for (k = 0; k < a->count; k++)
        {
            const collective* x = &a->collectives[k];
            const collective* y = &b->collectives[k];
            if (x->bytes != y->bytes)
                return ddnn_diag_set(diag,
                                     DDNN_ERR_RANGE,
                                     0,
                                     "comm_size",
                                     "the ranks disagree on all-reduce %lu (node %llu '%s'): "
                                     "%llu bytes against %llu",
                                     (unsigned long)k + 1,
                                     (unsigned long long)y->id,
                                     y->name,
                                     (unsigned long long)x->bytes,
                                     (unsigned long long)y->bytes);
            if (strcmp(x->group, y->group) != 0)
                return ddnn_diag_set(diag,
                                     DDNN_ERR_RANGE,
                                     0,
                                     "pg_name",
                                     "the ranks disagree on all-reduce %lu (node %llu '%s')'s "
                                     "group: '%s' against '%s'",
                                     (unsigned long)k + 1,
                                     (unsigned long long)y->id,
                                     y->name,
                                     x->group,
                                     y->group);
        }
    }
    *first = *second = n;
    t = calloc(1, sizeof *t);
    if (!t)
        return ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
    /* One profile for every worker: rank 0's compute times (ddnn's model of a job). */
    rc = ddnn_profile_from_layers(&t->profile, ranks[0]->layers, ranks[0]->count, diag);
    if (rc < 0)
    {
        *first = 0;
        free(t);
        return rc;
    }
    t->ranks = (uint32_t)n;
    for (k = 0; k < ranks[0]->count; k++)
        t->expected_bytes
            += 2.0 * (double)(n - 1) / (double)n * (double)ranks[0]->collectives[k].bytes;
    *out = t;
    return DDNN_OK;
}

void
ddnn_chakra_trace_free(ddnn_chakra_trace* t)
{
    if (t)
    {
        ddnn_profile_free(t->profile);
        free(t);
    }
}

uint32_t
ddnn_chakra_trace_ranks(const ddnn_chakra_trace* t)
{
    return t->ranks;
}

const ddnn_profile*
ddnn_chakra_trace_profile(const ddnn_chakra_trace* t)
{
    return t->profile;
}

ddnn_profile*
ddnn_chakra_trace_take_profile(ddnn_chakra_trace* t)
{
    ddnn_profile* p = t->profile;
    t->profile = NULL;
    return p;
}

double
ddnn_chakra_trace_expected_bytes_per_worker(const ddnn_chakra_trace* t)
{
    return t->expected_bytes;
}

/* <prefix>.<rank>.et: the prefix's length and the rank (no leading zeros, 4 digits at most). */
static int
split_name(const char* name, size_t* prefix_len, unsigned long* rank)
{
    size_t len = strlen(name), end, start;
    unsigned long value = 0;
    if (len < 6 || strcmp(name + len - 3, ".et") != 0)
        return -1;
    end = len - 3;
    start = end;
    while (start > 0 && name[start - 1] >= '0' && name[start - 1] <= '9')
        start--;
    if (start == end || end - start > 4 || start < 2 || name[start - 1] != '.'
        || (name[start] == '0' && end - start > 1))
        return -1;
    *prefix_len = start - 1; /* the prefix ends at the dot before the rank */
    for (; start < end; start++)
        value = value * 10 + (unsigned long)(name[start] - '0');
    *rank = value;
    return 0;
}

static int
compare_names(const void* a, const void* b)
{
    return strcmp(*(char* const*)a, *(char* const*)b);
}

int
ddnn_chakra_read_folder(
    ddnn_chakra_trace** out, const char* folder, char* file, size_t file_size, ddnn_diag* diag)
{
    DIR* dir;
    struct dirent* e;
    char** names = NULL;
    size_t count = 0, cap = 0, i, prefix_len = 0, ranks = 0, first, second;
    const char* prefix = NULL;
    char** by_rank = NULL;
    ddnn_chakra_rank** parsed = NULL;
    int rc = DDNN_OK;
    snprintf(file, file_size, "%s", folder);
    dir = opendir(folder);
    if (!dir)
        return ddnn_diag_set(diag, DDNN_ERR_IO, 0, "", "cannot open the trace folder");
    while ((e = readdir(dir)) != NULL)
    {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (count == DDNN_CHAKRA_MAX_RANKS)
        {
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_TOO_LARGE,
                               0,
                               "",
                               "more than %u files (ddnn simulates at most %u workers)",
                               DDNN_CHAKRA_MAX_RANKS,
                               DDNN_CHAKRA_MAX_RANKS);
            break;
        }
        if (DDNN_ARRAY_RESERVE(names, cap, count + 1) != DDNN_OK)
        {
            rc = ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
            break;
        }
        names[count] = strdup(e->d_name);
        if (!names[count])
        {
            rc = ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
            break;
        }
        count++;
    }
    closedir(dir);
    if (rc == DDNN_OK && count == 0)
        rc = ddnn_diag_set(diag, DDNN_ERR_EMPTY, 0, "", "no <prefix>.<rank>.et files");
    if (rc == DDNN_OK)
    {
        qsort(names, count, sizeof *names, compare_names);
        by_rank = calloc(DDNN_CHAKRA_MAX_RANKS, sizeof *by_rank);
        if (!by_rank)
            rc = ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
    }
    for (i = 0; rc == DDNN_OK && i < count; i++)
    {
        size_t len;
        unsigned long rank;
        snprintf(file, file_size, "%s/%s", folder, names[i]);
        if (split_name(names[i], &len, &rank) < 0)
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_SYNTAX,
                               0,
                               "",
                               "not a trace file: expected <prefix>.<rank>.et, the rank without "
                               "leading zeros");
        else if (rank >= DDNN_CHAKRA_MAX_RANKS)
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_RANGE,
                               0,
                               "",
                               "rank %lu: ddnn simulates at most %u workers",
                               rank,
                               DDNN_CHAKRA_MAX_RANKS);
        else if (prefix && (len != prefix_len || strncmp(prefix, names[i], len) != 0))
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_SYNTAX,
                               0,
                               "",
                               "a second prefix: the folder's other files start '%.*s.'",
                               (int)(prefix_len < 60 ? prefix_len : 60),
                               prefix);
        else
        {
            prefix = names[i];
            prefix_len = len;
            by_rank[rank] = names[i];
            if (rank + 1 > ranks)
                ranks = rank + 1;
        }
    }
    for (i = 0; rc == DDNN_OK && i < ranks; i++)
        if (!by_rank[i])
        {
            snprintf(file,
                     file_size,
                     "%s/%.*s.%lu.et",
                     folder,
                     (int)prefix_len,
                     prefix,
                     (unsigned long)i);
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_MISSING,
                               0,
                               "",
                               "missing: the folder holds ranks up to %lu, so every rank from 0 "
                               "must be there",
                               (unsigned long)ranks - 1);
        }
    if (rc == DDNN_OK)
    {
        parsed = calloc(ranks, sizeof *parsed);
        if (!parsed)
            rc = ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
    }
    for (i = 0; rc == DDNN_OK && i < ranks; i++)
    {
        char* data;
        size_t len;
        snprintf(file, file_size, "%s/%s", folder, by_rank[i]);
        rc = ddnn_read_file(file, DDNN_CHAKRA_MAX_FILE_BYTES, &data, &len, diag);
        if (rc == DDNN_OK)
        {
            rc = ddnn_chakra_parse_rank(&parsed[i], data, len, diag);
            free(data);
        }
    }
    if (rc == DDNN_OK)
    {
        rc = ddnn_chakra_join(out, parsed, ranks, &first, &second, diag);
        if (rc < 0 && first < ranks && second < ranks)
            snprintf(file, file_size, "%s/%s and %s", folder, by_rank[first], by_rank[second]);
        else if (rc < 0 && first < ranks)
            snprintf(file, file_size, "%s/%s", folder, by_rank[first]);
        else if (rc < 0)
            snprintf(file, file_size, "%s", folder);
    }
    for (i = 0; parsed && i < ranks; i++)
        ddnn_chakra_rank_free(parsed[i]);
    free(parsed);
    free(by_rank);
    for (i = 0; i < count; i++)
        free(names[i]);
    free(names);
    return rc;
}
