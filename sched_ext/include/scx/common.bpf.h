/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every BPF part of a sched_ext scheduler here starts with: the
 * kernel's types (vmlinux.h, which also declares the scx_bpf_* kfuncs),
 * libbpf's BPF helpers, the struct_ops program wrappers and the exit info.
 * One place, so that the scheduler's own files hold only its policy.
 */
#ifndef SCX_COMMON_BPF_H
#define SCX_COMMON_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "user_exit_info.h"

/* BPF_STRUCT_OPS - define the sched_ext_ops callback @name (args as the
 * kernel passes them); _SLEEPABLE for the callbacks that may sleep
 * (ops.init, ops.init_task...). */
#define BPF_STRUCT_OPS(name, args...) SEC("struct_ops/" #name) BPF_PROG(name, ##args)
#define BPF_STRUCT_OPS_SLEEPABLE(name, args...) SEC("struct_ops.s/" #name) BPF_PROG(name, ##args)

/* vmlinux.h carries no macros: the errno values and clock ids used here. */
#define ENOENT 2
#define ENOMEM 12
#define EBUSY 16
#define CLOCK_MONOTONIC 1

/* The exit info's constants must be the running kernel's. */
_Static_assert(UEI_KIND_ERROR == SCX_EXIT_ERROR, "UEI_KIND_ERROR is not SCX_EXIT_ERROR");
_Static_assert(UEI_ECODE_ACT_RESTART == SCX_ECODE_ACT_RESTART,
	       "UEI_ECODE_ACT_RESTART is not SCX_ECODE_ACT_RESTART");
_Static_assert((int)UEI_MSG_LEN == (int)SCX_EXIT_MSG_LEN, "UEI_MSG_LEN is not SCX_EXIT_MSG_LEN");

#endif /* SCX_COMMON_BPF_H */
