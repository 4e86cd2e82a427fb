# Reclaim figures with the classic active/inactive LRU: the checks of
# vmscan_mglru.sh, after `echo n > /sys/kernel/mm/lru_gen/enabled`, plus
# refill (active-list scanning) against memory.stat pgrefill.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=170 modules=zram,virtio_blk,ext4 disk=384M
NL_VMSCAN_LRU=classic . /nl/tests/vmscan_mglru.sh
