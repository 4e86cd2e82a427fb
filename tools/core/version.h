/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The one version string of numalens and scx_cling (--version, /). */
#ifndef NL_VERSION_H
#define NL_VERSION_H

#define NL_VERSION "0.1.0"

#endif
