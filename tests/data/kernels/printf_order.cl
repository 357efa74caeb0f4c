// printf from many work-items in several work-groups, before and after a barrier, from a
// helper function, with a data-dependent number of calls. The executor prints in global id
// order (then program order); PoCL in its own order: the comparison is of the sorted lines,
// plus every return value.

void report(int gid, int lid, int round) {
    printf("item %d (local %d) round %d\n", gid, lid, round);
}

kernel void printf_many(global const int *n, global int *ret, local int *scratch) {
    int gid = get_global_id(0), lid = get_local_id(0);
    scratch[lid] = gid * 2;
    ret[2 * gid] = printf("before barrier %d\n", gid);
    barrier(CLK_LOCAL_MEM_FENCE);
    int neighbour = scratch[(lid + 1) % get_local_size(0)];
    ret[2 * gid + 1] = printf("after barrier %d sees %d\n", gid, neighbour);
    for (int r = 0; r < n[gid]; r++)
        report(gid, lid, r);
}
