/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * main() for a fuzz target without libFuzzer: feeds it each file named on the command line
 * (the committed corpus and crash regressions), as libFuzzer would. Exit 0 when every input
 * returned; a crash or a sanitizer report fails the test.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int
main(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i)
    {
        FILE* f = fopen(argv[i], "rb");
        long size;
        uint8_t* data;
        if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
        {
            fprintf(stderr, "fuzz-replay: cannot read %s\n", argv[i]);
            return 1;
        }
        data = malloc(size ? (size_t)size : 1);
        if (!data || fread(data, 1, (size_t)size, f) != (size_t)size)
        {
            fprintf(stderr, "fuzz-replay: cannot read %s\n", argv[i]);
            return 1;
        }
        fclose(f);
        LLVMFuzzerTestOneInput(data, (size_t)size);
        free(data);
    }
    printf("fuzz-replay: %d inputs, no crash\n", argc - 1);
    return 0;
}
