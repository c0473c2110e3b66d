/* Build-time generator: the man page gpuocc(1) (roff) and the bash completion, both from the command
   descriptors (tools/cli.h), so `gpuocc CMD --help`, the man page and the completion cannot disagree.
   Usage: gpuocc-mkdoc man DOCDIR > FILE, gpuocc-mkdoc bash > FILE (DOCDIR: where docs/ is installed) */
#include "cli.h"

#include <string.h>

/* roff text: a leading '.' or '\'' would be a request, '\\' an escape, '-' a hyphen (flags want \-). */
static void roff(const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", stdout);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", stdout);
        else if (*s == '-')
            fputs("\\-", stdout);
        else
            putchar(*s);
    }
}

/* DOCDIR is written as \% PATH: no hyphen inserted where a line breaks a path. */
static void man(const char *docdir)
{
    printf(".TH GPUOCC 1 \"\" \"gpuocc %s\" \"User Commands\"\n", gpuocc_version_string());
    printf(".SH NAME\ngpuocc \\- GPU occupancy: blocks and warps per multiprocessor, what limits them, and why\n");
    printf(".SH SYNOPSIS\n.B gpuocc\n.I COMMAND\n[\n.I options\n]\n.br\n.B gpuocc\n.I COMMAND\n\\-\\-help\n");
    printf(".SH DESCRIPTION\nEach command answers one question about a kernel launch or a compiler's output; "
           "numbers come from the built\\-in architecture and product table (\n.B gpuocc devices\n).\n"
           "Sizes accept K, M and G suffixes (powers of 1024). CSV and JSON field names, and how \"no limit\" "
           "and \"unknown\" are written (\\-1 in CSV, null in JSON), are listed in\n.I \\%%");
    roff(docdir);
    printf("/output.md\n(docs/output.md in the source tree).\n");
    printf(".SH COMMANDS\n");
    for (size_t i = 0; i < cli_command_count; i++) {
        const struct cli_command *c = cli_commands[i];
        printf(".SS \"gpuocc %s ", c->name);
        roff(c->synopsis);
        printf("\"\n");
        roff(c->summary);
        printf(".\n");
        for (const struct cli_option *o = c->options; o && o->name; o++) {
            printf(".TP\n.B%s \"", o->value ? "I" : "");
            roff(o->name);
            if (o->value) {
                printf(" \" \"");
                roff(o->value);
            }
            printf("\"\n");
            roff(o->help);
            printf("\n");
        }
        if (c->examples && *c->examples) {
            printf(".PP\nExamples:\n.RS\n.nf\n");
            for (const char *p = c->examples; *p;) {
                size_t n = strcspn(p, "\n");
                char line[512];
                snprintf(line, sizeof line, "%.*s", (int)n, p);
                roff(line);
                printf("\n");
                p += n + (p[n] == '\n');
            }
            printf(".fi\n.RE\n");
        }
    }
    printf(".SH EXIT STATUS\n.TP\n.B 0\nEvery question was answered (a launch that fits 0 blocks is an answer in "
           "batch, sweep, ptxas, cubin).\n.TP\n.B 1\nAnswered, but something could not be: a bad batch row, a batch "
           "column that means an input batch does not read, an unreadable binary entry; and\n.B report\nwhen the launch cannot run (0 blocks), so that\n"
           ".B gpuocc report ... && launch\nstops.\n.TP\n.B 2\nUsage error, or no usable input at all (no kernel "
           "found, an unreadable file).\n.TP\n.B 3\nThe output could not be written (a full disk, a closed pipe or "
           "stdout).\n.PP\nThe reason goes to standard error, one line per problem, naming the flag, column or "
           "entry and the input line.\n");
    printf(".SH SEE ALSO\nThe library's header gpuocc.h. The documentation, installed in\n.I \\%%");
    roff(docdir);
    printf("\n(docs/ in the source tree): output.md (every CSV and JSON field), vocabulary.md (the short names and "
           "their C fields), python.md (the Python module), amd.md (AMD GPUs), intel.md (Intel GPUs), glossary.md (the terms), model.md "
           "(the rules), models.md (the models beyond occupancy), inputs.md (ptxas reports and binaries), "
           "plotting.md, sources.md (where every constant comes from), layers.md (the library's layers), "
           "implementation.md (how the C calls compute their answers, and what they cost).\n");
}

static void bash(void)
{
    printf("# bash completion for gpuocc (generated from its command descriptors)\n_gpuocc()\n{\n"
           "    local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]} words\n"
           "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n        words=\"--help --version");
    for (size_t i = 0; i < cli_command_count; i++)
        printf(" %s", cli_commands[i]->name);
    printf("\"\n    else\n        case $cmd in\n");
    for (size_t i = 0; i < cli_command_count; i++) {
        const struct cli_command *c = cli_commands[i];
        printf("        %s) words=\"--help", c->name);
        for (const struct cli_option *o = c->options; o && o->name; o++)
            printf(" %s", o->name);
        printf("\" ;;\n");
    }
    printf("        *) words=\"\" ;;\n        esac\n"
           /* --arch: every name of the table (gpuocc devices --json: "sm_90", "H100 SXM", "RTX 4090"), and a
              product family's first word that the lookup takes ("H100"); one reply per name, spaces kept:
              -o filenames makes readline quote it as the word is typed (RTX\ 4090, or "RTX 4090") */
           "        if [[ ${COMP_WORDS[COMP_CWORD-1]} == --arch ]]; then\n"
           "            local arg=${cur//\\\\/} name family IFS=$'\\n'\n"
           "            arg=${arg#[\\\"\\']}\n"
           "            local names=($(gpuocc devices --json 2>/dev/null | grep -o '\"name\":\"[^\"]*\"' | "
           "sed 's/^\"name\":\"//; s/\"$//'))\n"
           "            for name in \"${names[@]}\"; do\n"
           "                family=${name%%%% *}\n"
           "                if [[ $name == *' '* && $family == *[0-9]* && $'\\n'\"${names[*]}\"$'\\n' != *$'\\n'\"$family\"$'\\n'* ]]; then\n"
           "                    names+=(\"$family\")\n"
           "                fi\n"
           "            done\n"
           "            COMPREPLY=()\n"
           "            for name in \"${names[@]}\"; do\n"
           "                [[ $name == \"$arg\"* ]] && COMPREPLY+=(\"$name\")\n"
           "            done\n"
           "            return\n"
           "        fi\n"
           "        if [[ $cur != -* ]]; then\n"
           "            COMPREPLY=($(compgen -f -- \"$cur\"))\n            return\n        fi\n"
           "    fi\n    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n}\ncomplete -o filenames -F _gpuocc gpuocc\n");
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "man"))
        man(argv[2]);
    else if (argc == 2 && !strcmp(argv[1], "bash"))
        bash();
    else {
        fprintf(stderr, "usage: gpuocc-mkdoc man DOCDIR | gpuocc-mkdoc bash\n");
        return 2;
    }
    return fflush(stdout) || ferror(stdout) ? 3 : 0;
}
