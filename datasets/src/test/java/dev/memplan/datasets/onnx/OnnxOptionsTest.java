package dev.memplan.datasets.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The import options as a user writes them: fusion by name, bytes per element, opaque, each input's shape once. */
class OnnxOptionsTest {
    @Test
    void theWrittenOptionsBecomeTheImportOptions() {
        OnnxImport.Options o = OnnxImport.Options.of("bn", 2, true, List.of("x=1,3,8,8", "y=4"));
        assertEquals(OnnxImport.Fusion.BN, o.fusion());
        assertEquals(2, o.bytesPerElement());
        assertEquals(true, o.opaque());
        assertArrayEquals(new long[] {1, 3, 8, 8}, o.inputs().get("x"));
        assertArrayEquals(new long[] {4}, o.inputs().get("y"));
        OnnxImport.Options d = OnnxImport.Options.of("bn+activations", 1, false, List.of());
        assertEquals(OnnxImport.Options.defaults().fusion(), d.fusion());
        assertEquals(0, d.inputs().size());
    }

    @Test
    void anInputGivenTwiceIsRefused() {
        assertEquals("--input x=2: input 'x' is given twice; give each input's shape once",
                assertThrows(IllegalArgumentException.class,
                        () -> OnnxImport.Options.of("bn", 1, false, List.of("x=1", "x=2"))).getMessage());
        assertThrows(IllegalArgumentException.class, () -> OnnxImport.Options.of("fused", 1, false, List.of()));
        assertThrows(IllegalArgumentException.class, () -> OnnxImport.Options.of("bn", 0, false, List.of()));
    }
}
