package dev.memplan.model.mmap;

/**
 * One buffer of a two-level memory mapping instance (MMap-MuZero paper, Table 1): a use of a tensor by one
 * instruction, as an input (operand) or an output.
 *
 * @param tensor    the tensor this buffer is a use of; buffers of one tensor may hand their fast-memory copy on
 *                  (the NoCopy action)
 * @param alias     the alias group, or -1 for a group of its own; a group is placed whole or dropped whole, at
 *                  one offset (Appendix A, Eq. 4)
 * @param size      bytes, positive
 * @param output    true for an output of its instruction, false for an input
 * @param time      the logical time of its instruction (the paper's {@code target_time})
 * @param liveFirst first logical time the buffer may occupy fast memory (the paper's {@code live_range})
 * @param liveLast  last logical time it may occupy fast memory; {@code liveFirst <= time <= liveLast}
 * @param demand    copy demand: the supply its copy between the memories consumes (Appendix A, Eq. 5)
 * @param benefit   the speed-up if it is served from fast memory; the reward of placing it
 */
public record MmapBuffer(int tensor, int alias, long size, boolean output, int time, int liveFirst, int liveLast,
        long demand, long benefit) {
}
