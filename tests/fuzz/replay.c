/* Replays fuzz inputs (files named on the command line) through a fuzz target: the corpus runs as an
   ordinary test where no fuzzer is installed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    int ran = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            fprintf(stderr, "replay: cannot open %s\n", argv[i]);
            return 1;
        }
        static uint8_t buf[1 << 20];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        /* every prefix of a short input too: truncation is the commonest malformation */
        for (size_t cut = n > 4096 ? n : 0; cut <= n; cut += (n > 64 ? n / 64 : 1))
            LLVMFuzzerTestOneInput(buf, cut), ran++;
        LLVMFuzzerTestOneInput(buf, n), ran++;
    }
    printf("replay: %d passed, 0 failed\n", ran);
    return 0;
}
