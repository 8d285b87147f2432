package dev.memplan.datasets.onnx;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes ONNX models for tests in the protobuf wire format, by the field numbers of onnx.proto (the same ones
 * {@link OnnxReader} reads; a real exported model in the tests checks that both agree with the world). Weights
 * larger than a few elements are written as external data (dims, no bytes), as exporters do for big models, so a
 * ResNet-50 fits in a few kilobytes.
 */
public final class OnnxWriter {
    private final List<byte[]> nodes = new ArrayList<>();
    private final List<byte[]> initializers = new ArrayList<>();
    private final List<byte[]> inputs = new ArrayList<>();
    private final List<byte[]> outputs = new ArrayList<>();
    private final List<byte[]> valueInfo = new ArrayList<>();
    private final long opset;
    private int counter;

    public OnnxWriter(long opset) {
        this.opset = opset;
    }

    /** A float graph input; each dim is a Long/Integer (fixed) or a String (symbolic). */
    public OnnxWriter input(String name, Object... dims) {
        inputs.add(valueInfoBytes(name, dims));
        return this;
    }

    /** A graph output with no shape given. */
    public OnnxWriter output(String name) {
        outputs.add(message(w -> w.writeString(1, name)));
        return this;
    }

    /** A value_info entry (used by --opaque). */
    public OnnxWriter valueInfo(String name, Object... dims) {
        valueInfo.add(valueInfoBytes(name, dims));
        return this;
    }

    /** A float weight of the given dims (external data: dims only). */
    public OnnxWriter weight(String name, long... dims) {
        initializers.add(tensor(name, 1, dims, null, true));
        return this;
    }

    /** An INT64 initializer with its values inline (raw_data). */
    public OnnxWriter ints(String name, long[] dims, long... values) {
        initializers.add(tensor(name, 7, dims, values, false));
        return this;
    }

    /** A 1-D FLOAT initializer with its values inline (raw_data). */
    public OnnxWriter floats(String name, float... values) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            b.putFloat(v);
        }
        initializers.add(message(w -> {
            w.writeInt64(1, values.length);
            w.writeInt32(2, 1);
            w.writeString(8, name);
            w.writeByteArray(9, b.array());
        }));
        return this;
    }

    /** A 1-D FLOAT initializer in float_data (packed), as some exporters write small constants. */
    public OnnxWriter floatData(String name, float... values) {
        return packed(name, values.length, 1, 4, p -> {
            for (float v : values) {
                p.writeFloatNoTag(v);
            }
        });
    }

    /** A 1-D INT64 initializer in int64_data (packed). */
    public OnnxWriter int64Data(String name, long... values) {
        return packed(name, values.length, 7, 7, p -> {
            for (long v : values) {
                p.writeInt64NoTag(v);
            }
        });
    }

    private OnnxWriter packed(String name, int length, int type, int field, Body values) {
        initializers.add(message(w -> {
            w.writeInt64(1, length);
            w.writeInt32(2, type);
            w.writeByteArray(field, message(values));
            w.writeString(8, name);
        }));
        return this;
    }

    /** A 1-D INT64 initializer. */
    public OnnxWriter ints(String name, long... values) {
        return ints(name, new long[] {values.length}, values);
    }

    /** A node; attributes from {@link #attr} and friends. */
    public OnnxWriter node(String op, String[] ins, String[] outs, byte[]... attributes) {
        String name = op + "_" + counter++;
        nodes.add(message(w -> {
            for (String i : ins) {
                w.writeString(1, i);
            }
            for (String o : outs) {
                w.writeString(2, o);
            }
            w.writeString(3, name);
            w.writeString(4, op);
            for (byte[] a : attributes) {
                w.writeByteArray(5, a);
            }
        }));
        return this;
    }

    /** A node with one input list and one output. */
    public OnnxWriter node(String op, String out, String[] ins, byte[]... attributes) {
        return node(op, ins, new String[] {out}, attributes);
    }

    public static String[] in(String... names) {
        return names;
    }

    /** An INT attribute. */
    public static byte[] attrInt(String name, long value) {
        return message(w -> {
            w.writeString(1, name);
            w.writeInt64(3, value);
            w.writeInt32(20, 2);
        });
    }

    /** An INTS attribute, unpacked as onnx.proto (proto2) writes it. */
    public static byte[] attrInts(String name, long... values) {
        return message(w -> {
            w.writeString(1, name);
            for (long v : values) {
                w.writeInt64(8, v);
            }
            w.writeInt32(20, 7);
        });
    }

    /** A FLOAT attribute. */
    public static byte[] attrFloat(String name, float value) {
        return message(w -> {
            w.writeString(1, name);
            w.writeFloat(2, value);
            w.writeInt32(20, 1);
        });
    }

    /** A STRING attribute. */
    public static byte[] attrString(String name, String value) {
        return message(w -> {
            w.writeString(1, name);
            w.writeBytes(4, ByteString.copyFromUtf8(value));
            w.writeInt32(20, 3);
        });
    }

    /** A TENSOR attribute holding INT64 values (for Constant). */
    public static byte[] attrTensor(String name, long[] dims, long... values) {
        byte[] t = tensor("", 7, dims, values, false);
        return message(w -> {
            w.writeString(1, name);
            w.writeByteArray(5, t);
            w.writeInt32(20, 4);
        });
    }

    /** An attribute holding a subgraph (If/Loop bodies): the importer must refuse it. */
    public static byte[] attrGraph(String name) {
        return message(w -> {
            w.writeString(1, name);
            w.writeByteArray(6, message(g -> g.writeString(2, "body")));
            w.writeInt32(20, 5);
        });
    }

    /** The model's bytes. */
    public byte[] bytes() {
        byte[] graph = message(w -> {
            for (byte[] n : nodes) {
                w.writeByteArray(1, n);
            }
            w.writeString(2, "test");
            for (byte[] t : initializers) {
                w.writeByteArray(5, t);
            }
            for (byte[] i : inputs) {
                w.writeByteArray(11, i);
            }
            for (byte[] o : outputs) {
                w.writeByteArray(12, o);
            }
            for (byte[] v : valueInfo) {
                w.writeByteArray(13, v);
            }
        });
        return message(w -> {
            w.writeInt64(1, 8);
            w.writeString(2, "memplan-tests");
            w.writeByteArray(7, graph);
            w.writeByteArray(8, message(o -> {
                o.writeString(1, "");
                o.writeInt64(2, opset);
            }));
        });
    }

    private static byte[] tensor(String name, int type, long[] dims, long[] values, boolean external) {
        return message(w -> {
            for (long d : dims) {
                w.writeInt64(1, d);
            }
            w.writeInt32(2, type);
            w.writeString(8, name);
            if (values != null) {
                ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
                for (long v : values) {
                    b.putLong(v);
                }
                w.writeByteArray(9, b.array());
            }
            if (external) {
                w.writeByteArray(13, message(e -> {
                    e.writeString(1, "location");
                    e.writeString(2, "weights.bin");
                }));
                w.writeInt32(14, 1);
            }
        });
    }

    private static byte[] valueInfoBytes(String name, Object... dims) {
        byte[] shape = message(s -> {
            for (Object d : dims) {
                s.writeByteArray(1, message(dim -> {
                    if (d instanceof String p) {
                        dim.writeString(2, p);
                    } else {
                        dim.writeInt64(1, ((Number) d).longValue());
                    }
                }));
            }
        });
        byte[] tensorType = message(t -> {
            t.writeInt32(1, 1);
            t.writeByteArray(2, shape);
        });
        return message(w -> {
            w.writeString(1, name);
            w.writeByteArray(2, message(t -> t.writeByteArray(1, tensorType)));
        });
    }

    private interface Body {
        void write(CodedOutputStream w) throws IOException;
    }

    private static byte[] message(Body body) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            CodedOutputStream w = CodedOutputStream.newInstance(bytes);
            body.write(w);
            w.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
