/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user-space side of a sched_ext scheduler here: open, load and attach
 * its skeleton in the usual three steps, and read its exit info
 * (user_exit_info.h). Unlike an abort-on-error helper, each step returns
 * its failure with errno set, so the loader can say what went wrong in
 * its own words and pick its exit status.
 */
#ifndef SCX_COMMON_H
#define SCX_COMMON_H

#include <errno.h>
#include <stdbool.h>
#include <bpf/libbpf.h>
#include "user_exit_info.h"

/* SCX_OPS_OPEN - open skeleton @__scx_name (struct @__scx_name), whose
 * rodata and struct_ops map @__ops_name may then be set before load.
 * NULL with errno set on failure. */
#define SCX_OPS_OPEN(__ops_name, __scx_name) __scx_name##__open()

/* SCX_OPS_LOAD - load (verify) the opened @__skel, its exit info
 * @__uei_name cleared first. 0, or -1 with errno set. */
#define SCX_OPS_LOAD(__skel, __ops_name, __scx_name, __uei_name)  \
	({                                                        \
		UEI_RESET(__skel, __uei_name);                    \
		__scx_name##__load(__skel) ? -1 : 0;              \
	})

/* SCX_OPS_ATTACH - attach the loaded @__skel's other programs, then the
 * scheduler itself (struct_ops map @__ops_name) as a link of its own,
 * which the caller destroys to detach. NULL with errno set on failure. */
#define SCX_OPS_ATTACH(__skel, __ops_name, __scx_name)                          \
	({                                                                      \
		struct bpf_link *__link = NULL;                                 \
		bpf_map__set_autoattach((__skel)->maps.__ops_name, false);      \
		if (!__scx_name##__attach(__skel))                              \
			__link = bpf_map__attach_struct_ops((__skel)->maps.__ops_name); \
		__link;                                                         \
	})

#endif /* SCX_COMMON_H */
