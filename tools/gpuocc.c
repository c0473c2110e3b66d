/* The gpuocc program: standard streams in, exit status out.  Everything else is cli_main (tools/main.c). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* A standard descriptor closed by the caller (`>&-`) must not be taken by the next open(): then the input
   file would become stdout.  Hold it with /dev/null opened the wrong way, so every write to it fails. */
static void hold_closed(int fd, int flags)
{
    if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
        int got = open("/dev/null", flags);
        if (got >= 0 && got != fd)
            close(got);
    }
}

int main(int argc, char **argv)
{
#ifdef SIGPIPE
    /* a reader that goes away (`| head`) makes writes fail with EPIPE, which the output checks turn into
       exit 3 with a line on stderr (docs/output.md), instead of a death by signal (status 141) */
    signal(SIGPIPE, SIG_IGN);
#endif
    hold_closed(0, O_WRONLY);
    hold_closed(1, O_RDONLY);
    hold_closed(2, O_RDONLY);
    struct cli_io io = {.in = stdin, .out = stdout, .err = stderr};
    int status = cli_main(&io, argc, argv);
    /* the final close is a write too (a full disk may only show here) */
    errno = 0;
    if (fclose(stdout) != 0 && status != CLI_OUTPUT) {
        fprintf(stderr, "gpuocc: output: cannot write: %s\n", strerror(errno));
        status = CLI_OUTPUT;
    }
    return status;
}
