/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ddnn-scenario-schema FILE: writes the schema of scenario and campaign files (generated from
 * the parameter table) to FILE, for editors and xmllint; the build makes
 * ddnn-scenario.xsd with it. The programs do not read the file: they validate against the
 * schema they generate themselves.
 */
#include "ddnn-scenario-schema.h"

#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char** argv)
{
    char* text = NULL;
    size_t len = 0;
    FILE* out;
    if (argc != 2)
    {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 1;
    }
    if (ddnn_scenario_schema(&text, &len) != 0)
    {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        return 1;
    }
    out = fopen(argv[1], "w");
    if (!out || fwrite(text, 1, len, out) != len || fclose(out) != 0)
    {
        fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[1]);
        free(text);
        return 1;
    }
    free(text);
    return 0;
}
