package dev.memplan.model.mmap;

import java.util.Locale;

/** The actions of the MMapGame (MMap-MuZero paper, Section 4.2). */
public enum Action {
    /** Copy the buffer between slow and fast memory; its copy consumes supply (Appendix A, Eq. 5 and 6). */
    COPY,
    /** Place the buffer in fast memory by extending an earlier fast-memory allocation of the same tensor. */
    NOCOPY,
    /** Leave the buffer in slow memory: no allocation, no reward. */
    DROP;

    /** The name in the file formats: {@code copy}, {@code nocopy} or {@code drop}. */
    public String fileName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a file name; null when the text is no action. */
    public static Action fromFileName(String text) {
        for (Action a : values()) {
            if (a.fileName().equals(text)) {
                return a;
            }
        }
        return null;
    }
}
