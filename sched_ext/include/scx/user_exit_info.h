/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why a sched_ext scheduler left, handed from its BPF side to its loader.
 * The kernel tells only ops.exit (struct scx_exit_info, kernel memory);
 * the BPF side copies what the loader needs into one global of the type
 * below (UEI_DEFINE, UEI_RECORD) and the loader reads it through the
 * skeleton (UEI_EXITED, UEI_REPORT, UEI_ECODE_RESTART). Fixed-size
 * fields only, so both sides see one layout.
 */
#ifndef SCX_USER_EXIT_INFO_H
#define SCX_USER_EXIT_INFO_H

/* Sizes of the copied strings: the kernel's reason and message limits. */
enum uei_sizes {
	UEI_REASON_LEN = 128,
	UEI_MSG_LEN = 1024,
};

/* enum scx_exit_kind: 0 none, 1 done, 64.. unregistered (orderly);
 * from UEI_KIND_ERROR on, the kernel or the scheduler hit an error. */
#define UEI_KIND_ERROR 1024
/* The exit-code bit by which the kernel (after a CPU hotplug event, or a
 * hotplug race during attach) asks the loader to start the scheduler
 * again: SCX_ECODE_ACT_RESTART of enum scx_exit_code. */
#define UEI_ECODE_ACT_RESTART (1ULL << 48)

/*
 * struct user_exit_info - what ops.exit saw.
 * @kind:      enum scx_exit_kind; written last, so non-zero means the rest
 *             is complete
 * @exit_code: the exit code (UEI_ECODE_ACT_RESTART bit: restart wanted)
 * @reason:    the kernel's one-line reason
 * @msg:       the longer message (scx_bpf_error() text, for example)
 */
struct user_exit_info {
	int kind;
	int pad;
	long long exit_code;
	char reason[UEI_REASON_LEN];
	char msg[UEI_MSG_LEN];
};

#ifdef __bpf__

/* UEI_DEFINE - the global the loader polls (zeroed: .bss). */
#define UEI_DEFINE(__name) struct user_exit_info __name

/* UEI_RECORD - copy @__ei (ops.exit's argument) into @__name; the kind
 * goes in last and atomically, as the loader polls it. */
#define UEI_RECORD(__name, __ei)                                                         \
	({                                                                                \
		(__name).exit_code = (__ei)->exit_code;                                   \
		bpf_probe_read_kernel_str((__name).reason, sizeof((__name).reason),      \
					  (__ei)->reason);                                \
		bpf_probe_read_kernel_str((__name).msg, sizeof((__name).msg), (__ei)->msg); \
		__sync_fetch_and_add(&(__name).kind, (__ei)->kind);                       \
	})

#else /* user space */

#include <stdio.h>
#include <string.h>

/* UEI_EXITED - true once the scheduler of @__skel has left. A volatile
 * read: the loader polls it in a loop. */
#define UEI_EXITED(__skel, __name) (*(volatile int *)&(__skel)->bss->__name.kind != 0)

/* UEI_RESET - clear @__name before the loaded object is attached again. */
#define UEI_RESET(__skel, __name) memset(&(__skel)->bss->__name, 0, sizeof((__skel)->bss->__name))

/* UEI_ECODE_RESTART - true when exit code @__ecode asks for a restart. */
#define UEI_ECODE_RESTART(__ecode) (((unsigned long long)(__ecode) & UEI_ECODE_ACT_RESTART) != 0)

/* UEI_REPORT - print on stderr, under program name @__prog, why the
 * kernel ejected the scheduler; evaluates to the exit code. */
#define UEI_REPORT(__prog, __skel, __name)                                                 \
	({                                                                                 \
		const struct user_exit_info *__uei = &(__skel)->bss->__name;               \
		fprintf(stderr, "%s: the kernel ejected the scheduler: kind=%d exit_code=%lld " \
			"reason=\"%s\" msg=\"%s\"\n", (__prog), __uei->kind,               \
			(long long)__uei->exit_code, __uei->reason, __uei->msg);           \
		__uei->exit_code;                                                          \
	})

#endif /* __bpf__ */

#endif /* SCX_USER_EXIT_INFO_H */
