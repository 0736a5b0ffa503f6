/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of the flow schedule reader. */
#include "ddnn-schedule.h"
#include "ddnn-unit.h"

static void
expect_error(const char* text, int code, long line, const char* field)
{
    ddnn_schedule s = {NULL, 0};
    ddnn_diag diag;
    memset(&diag, 0, sizeof diag);
    CHECK_REJECTED(
        ddnn_schedule_parse(&s, text, strlen(text), 4, &diag), &diag, text, code, line, field);
    CHECK(s.flows == NULL);
}

static void
sorts_by_start_time(void)
{
    const char* text = "flow_id,from,to,size_bytes,start_ns\n"
                       "2,0,1,100,3000\n"
                       "0,1,2,200,1000\n"
                       "1,3,0,300,1000\n";
    ddnn_schedule s = {NULL, 0};
    ddnn_diag diag;
    CHECK(ddnn_schedule_parse(&s, text, strlen(text), 4, &diag) == DDNN_OK);
    CHECK_U64(s.count, 3);
    if (s.count != 3)
        return;
    CHECK_U64(s.flows[0].id, 0);
    CHECK_U64(s.flows[1].id, 1);
    CHECK_U64(s.flows[2].id, 2);
    CHECK_U64(s.flows[1].src, 3);
    CHECK_U64(s.flows[1].dst, 0);
    CHECK_U64(s.flows[1].bytes, 300);
    CHECK_U64(s.flows[2].start_ns, 3000);
    ddnn_schedule_free(&s);
}

static void
rejects_bad_rows(void)
{
    expect_error("", DDNN_ERR_EMPTY, 0, "");
    expect_error("0,0,4,100,0\n", DDNN_ERR_RANGE, 1, "to");
    expect_error("0,9,1,100,0\n", DDNN_ERR_RANGE, 1, "from");
    expect_error("0,1,1,100,0\n", DDNN_ERR_RANGE, 1, "to");
    expect_error("0,0,1,-100,0\n", DDNN_ERR_RANGE, 1, "size_bytes");
    expect_error("0,0,1,0,0\n", DDNN_ERR_RANGE, 1, "size_bytes");
    expect_error("0,0,1,100,-5\n", DDNN_ERR_RANGE, 1, "start_ns");
    /* ns-3 times are signed 64-bit nanoseconds; flow sizes share the CDF's bound. */
    expect_error("0,0,1,100,9223372036854775808\n", DDNN_ERR_RANGE, 1, "start_ns");
    expect_error("0,0,1,1000000000001,0\n", DDNN_ERR_RANGE, 1, "size_bytes");
    expect_error("0,0,1,100\n", DDNN_ERR_SYNTAX, 1, "");
    expect_error("0,0,1,100,0\n0,1,2,5,7\n", DDNN_ERR_DUPLICATE, 0, "flow_id");
}

/* A header names the columns in any order; a byte order mark is no data; quotes are refused. */
static void
reads_columns_by_their_header_names(void)
{
    static const char text[] = "\xef\xbb\xbfstart_ns,size_bytes,to,from,flow_id\n"
                               "7,100,0,1,0\n";
    ddnn_schedule s = {0};
    ddnn_diag diag = {0};
    CHECK(ddnn_schedule_parse(&s, text, sizeof text - 1, 4, &diag) == DDNN_OK);
    CHECK_U64(s.count, 1);
    CHECK_U64(s.flows[0].src, 1);
    CHECK_U64(s.flows[0].dst, 0);
    CHECK_U64(s.flows[0].bytes, 100);
    CHECK_U64(s.flows[0].start_ns, 7);
    ddnn_schedule_free(&s);
    /* without the header's names, the same row would be a flow from 100 to 0 */
    expect_error("flow_id,to,from,size_bytes\n0,0,1,100\n", DDNN_ERR_SYNTAX, 1, "");
    /* a header of other names whose known names sit in their places: read by position, as
     * ddnn 0.1 read every header, with a notice; one whose names swap two columns: refused */
    {
        static const char old[] = "id,from,to,size_bytes,start\n0,1,0,100,5\n";
        memset(&diag, 0, sizeof diag);
        CHECK(ddnn_schedule_parse(&s, old, sizeof old - 1, 4, &diag) == DDNN_OK);
        CHECK(diag.code == DDNN_OK);
        CHECK_STR_CONTAINS(diag.message, "'flow_id,from,to,size_bytes,start_ns'");
        CHECK(s.count == 1 && s.flows[0].src == 1 && s.flows[0].start_ns == 5);
        ddnn_schedule_free(&s);
    }
    expect_error("flow_id,to,from,size_bytes,start\n0,0,1,100,0\n", DDNN_ERR_SYNTAX, 1, "");
    expect_error("\xef\xbb\xbf"
                 "0,0,4,100,0\n",
                 DDNN_ERR_RANGE,
                 1,
                 "to");
    expect_error("\"0\",0,1,100,0\n", DDNN_ERR_SYNTAX, 1, "");
}

int
main(void)
{
    RUN(sorts_by_start_time);
    RUN(rejects_bad_rows);
    RUN(reads_columns_by_their_header_names);
    return UNIT_REPORT();
}
