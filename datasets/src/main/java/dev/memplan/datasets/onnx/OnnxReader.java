package dev.memplan.datasets.onnx;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import dev.memplan.datasets.onnx.OnnxModel.Attribute;
import dev.memplan.datasets.onnx.OnnxModel.Dim;
import dev.memplan.datasets.onnx.OnnxModel.Initializer;
import dev.memplan.datasets.onnx.OnnxModel.Node;
import dev.memplan.datasets.onnx.OnnxModel.ValueInfo;
import dev.memplan.model.io.FormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an ONNX model file with protobuf-java's wire-format decoder ({@link CodedInputStream}), by the field
 * numbers of the ONNX specification (onnx.proto, IR version 3 to 10). Only the messages and fields planning needs
 * are decoded; everything else is skipped, and weight data is never copied: an initializer's values are decoded
 * only when it has at most {@link #VALUE_LIMIT} elements (shape constants, scales, axes), so a model of a few
 * hundred MB reads in time proportional to its node count, not its weights.
 *
 * <p>Why not generated classes: the repository copies no schema file, and no Maven artifact ships onnx.proto
 * classes compiled for the protobuf-java 4.x runtime that OR-Tools already puts on the classpath; reading the
 * documented wire format directly costs one small class and avoids a second protobuf runtime.
 */
final class OnnxReader {
    /** Initializers up to this many elements have their values decoded (shape inputs are far smaller). */
    static final int VALUE_LIMIT = 4096;

    // onnx.proto TensorProto.DataType
    static final int FLOAT = 1;
    static final int UINT8 = 2;
    static final int INT8 = 3;
    static final int UINT16 = 4;
    static final int INT16 = 5;
    static final int INT32 = 6;
    static final int INT64 = 7;
    static final int BOOL = 9;
    static final int FLOAT16 = 10;
    static final int DOUBLE = 11;
    static final int UINT32 = 12;
    static final int UINT64 = 13;

    private final String file;
    private final byte[] bytes;
    /** Where each open stream starts in {@code bytes}: sub-messages are read in place, nothing is copied. */
    private final Map<CodedInputStream, Integer> offsets = new java.util.IdentityHashMap<>();

    private OnnxReader(String file, byte[] bytes) {
        this.file = file;
        this.bytes = bytes;
    }

    /** Reads the model in {@code path}; a file that is not a readable ONNX model is a {@link FormatException}. */
    static OnnxModel read(Path path) {
        String file = path.toString();
        byte[] bytes;
        try {
            if (Files.size(path) > Integer.MAX_VALUE) {
                throw new FormatException(file, "file", "over 2 GB, more than one protobuf message can hold; "
                        + "export the model with its weights as external data");
            }
            bytes = Files.readAllBytes(path);
        } catch (IOException e) {
            throw new FormatException(file, "file", "cannot read: " + dev.memplan.model.io.AtomicFiles.reason(e), e);
        }
        return read(file, bytes);
    }

    /** Reads a model from its bytes; {@code file} names it in messages. */
    static OnnxModel read(String file, byte[] bytes) {
        OnnxReader r = new OnnxReader(file, bytes);
        try {
            return r.model();
        } catch (InvalidProtocolBufferException | IllegalStateException | IndexOutOfBoundsException e) {
            throw new FormatException(file, "file", "not an ONNX model (truncated or not protobuf): "
                    + e.getMessage(), e);
        } catch (IOException e) {
            throw new FormatException(file, "file", "cannot read: " + e.getMessage(), e);
        }
    }

    private OnnxModel model() throws IOException {
        CodedInputStream in = stream(0, bytes.length);
        long ir = -1;
        long opset = -1;
        OnnxModel.Graph graph = null;
        List<String> domains = new ArrayList<>();
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                break;
            }
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> ir = in.readInt64();
                case 7 -> graph = graph(sub(in));
                case 8 -> {
                    CodedInputStream o = sub(in);
                    String domain = "";
                    long version = -1;
                    for (int t = o.readTag(); t != 0; t = o.readTag()) {
                        switch (WireFormat.getTagFieldNumber(t)) {
                            case 1 -> domain = o.readString();
                            case 2 -> version = o.readInt64();
                            default -> o.skipField(t);
                        }
                    }
                    if (domain.isEmpty() || domain.equals("ai.onnx")) {
                        opset = version;
                    }
                    domains.add(domain);
                }
                default -> in.skipField(tag);
            }
        }
        if (graph == null || ir < 1) {
            throw new FormatException(file, "file", "not an ONNX model: no " + (graph == null ? "graph" : "ir_version"));
        }
        if (opset < 0) {
            throw new FormatException(file, "opset_import", "no default-domain (ai.onnx) opset; imported domains: "
                    + domains);
        }
        return new OnnxModel(file, ir, opset, graph);
    }

    private OnnxModel.Graph graph(CodedInputStream in) throws IOException {
        String name = "";
        List<Node> nodes = new ArrayList<>();
        Map<String, Initializer> initializers = new LinkedHashMap<>();
        List<ValueInfo> inputs = new ArrayList<>();
        List<ValueInfo> outputs = new ArrayList<>();
        Map<String, ValueInfo> valueInfo = new LinkedHashMap<>();
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> nodes.add(node(sub(in)));
                case 2 -> name = in.readString();
                case 5 -> {
                    Initializer t = tensor(sub(in));
                    initializers.put(t.name(), t);
                }
                case 11 -> inputs.add(valueInfo(sub(in)));
                case 12 -> outputs.add(valueInfo(sub(in)));
                case 13 -> {
                    ValueInfo v = valueInfo(sub(in));
                    valueInfo.put(v.name(), v);
                }
                case 15 -> throw new FormatException(file, "graph", "sparse initializers are not supported");
                default -> in.skipField(tag);
            }
        }
        return new OnnxModel.Graph(name, nodes, initializers, inputs, outputs, valueInfo);
    }

    private Node node(CodedInputStream in) throws IOException {
        List<String> inputs = new ArrayList<>();
        List<String> outputs = new ArrayList<>();
        String name = "";
        String op = "";
        String domain = "";
        Map<String, Attribute> attributes = new LinkedHashMap<>();
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> inputs.add(in.readString());
                case 2 -> outputs.add(in.readString());
                case 3 -> name = in.readString();
                case 4 -> op = in.readString();
                case 5 -> {
                    Attribute a = attribute(sub(in));
                    attributes.put(a.name(), a);
                }
                case 7 -> domain = in.readString();
                default -> in.skipField(tag);
            }
        }
        return new Node(name, op, domain, inputs, outputs, attributes);
    }

    private Attribute attribute(CodedInputStream in) throws IOException {
        String name = "";
        float f = 0;
        long i = 0;
        String s = "";
        List<Long> ints = new ArrayList<>();
        List<Float> floats = new ArrayList<>();
        Initializer t = null;
        boolean graph = false;
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            int field = WireFormat.getTagFieldNumber(tag);
            boolean packed = WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED;
            switch (field) {
                case 1 -> name = in.readString();
                case 2 -> f = in.readFloat();
                case 3 -> i = in.readInt64();
                case 4 -> s = in.readBytes().toString(StandardCharsets.UTF_8);
                case 5 -> t = tensor(sub(in));
                case 6, 11 -> {
                    graph = true;
                    in.skipField(tag);
                }
                case 7 -> readFloats(in, packed, floats);
                case 8 -> readLongs(in, packed, ints);
                default -> in.skipField(tag);
            }
        }
        long[] li = ints.stream().mapToLong(Long::longValue).toArray();
        float[] lf = new float[floats.size()];
        for (int k = 0; k < lf.length; k++) {
            lf[k] = floats.get(k);
        }
        return new Attribute(name, f, i, s, li, lf, t, graph);
    }

    private Initializer tensor(CodedInputStream in) throws IOException {
        List<Long> dims = new ArrayList<>();
        int type = 0;
        String name = "";
        List<Long> ints = new ArrayList<>();
        List<Float> floats = new ArrayList<>();
        List<Double> doubles = new ArrayList<>();
        int rawStart = -1;
        int rawLength = 0;
        boolean external = false;
        List<int[]> packedFields = new ArrayList<>();
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            boolean packed = WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED;
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> readLongs(in, packed, dims);
                case 2 -> type = in.readInt32();
                case 4, 5, 7, 10, 11 -> {
                    if (packed) { // weights: keep where they are, decode below only if the tensor is small
                        int length = in.readRawVarint32();
                        packedFields.add(new int[] {WireFormat.getTagFieldNumber(tag),
                            in.getTotalBytesRead() + offsetOf(in), length});
                        in.skipRawBytes(length);
                    } else {
                        readValue(in, WireFormat.getTagFieldNumber(tag), floats, ints, doubles);
                    }
                }
                case 8 -> name = in.readString();
                case 9 -> {
                    rawLength = in.readRawVarint32();
                    rawStart = in.getTotalBytesRead() + offsetOf(in);
                    in.skipRawBytes(rawLength);
                }
                case 14 -> external = in.readInt32() == 1;
                default -> in.skipField(tag);
            }
        }
        long[] d = dims.stream().mapToLong(Long::longValue).toArray();
        long elements = 1;
        for (long x : d) {
            elements *= x;
        }
        long[] longs = null;
        double[] reals = null;
        if (!external && elements <= VALUE_LIMIT) {
            for (int[] f : packedFields) {
                CodedInputStream p = stream(f[1], f[2]);
                while (!p.isAtEnd()) {
                    readValue(p, f[0], floats, ints, doubles);
                }
            }
            boolean floating = type == FLOAT || type == DOUBLE || type == FLOAT16;
            int n = (int) elements;
            if (rawStart >= 0) {
                ByteBuffer b = ByteBuffer.wrap(bytes, rawStart, rawLength).order(ByteOrder.LITTLE_ENDIAN);
                int width = width(type);
                if (width > 0 && rawLength == n * width) {
                    if (floating) {
                        reals = new double[n];
                        for (int k = 0; k < n; k++) {
                            reals[k] = switch (type) {
                                case FLOAT -> b.getFloat();
                                case DOUBLE -> b.getDouble();
                                default -> half(b.getShort());
                            };
                        }
                    } else {
                        longs = new long[n];
                        for (int k = 0; k < n; k++) {
                            longs[k] = switch (width) {
                                case 1 -> type == INT8 ? b.get() : b.get() & 0xff;
                                case 2 -> type == INT16 ? b.getShort() : b.getShort() & 0xffff;
                                case 4 -> type == UINT32 ? b.getInt() & 0xffffffffL : b.getInt();
                                default -> b.getLong();
                            };
                        }
                    }
                }
            } else if (floating && floats.size() == n) {
                reals = floats.stream().mapToDouble(Float::doubleValue).toArray();
            } else if (floating && doubles.size() == n) {
                reals = doubles.stream().mapToDouble(Double::doubleValue).toArray();
            } else if (!floating && ints.size() == n) {
                longs = ints.stream().mapToLong(Long::longValue).toArray();
            } else if (type == FLOAT16 && ints.size() == n) {
                // float16 values travel in int32_data as their bit patterns
                reals = ints.stream().mapToDouble(v -> half((short) v.longValue())).toArray();
            }
        }
        return new Initializer(name, d, type, longs, reals, external);
    }

    private ValueInfo valueInfo(CodedInputStream in) throws IOException {
        String name = "";
        int elem = 0;
        List<Dim> dims = null;
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> name = in.readString();
                case 2 -> {
                    CodedInputStream type = sub(in);
                    for (int t = type.readTag(); t != 0; t = type.readTag()) {
                        if (WireFormat.getTagFieldNumber(t) != 1) { // only TypeProto.tensor_type
                            type.skipField(t);
                            continue;
                        }
                        CodedInputStream tensor = sub(type);
                        for (int u = tensor.readTag(); u != 0; u = tensor.readTag()) {
                            switch (WireFormat.getTagFieldNumber(u)) {
                                case 1 -> elem = tensor.readInt32();
                                case 2 -> dims = shape(sub(tensor));
                                default -> tensor.skipField(u);
                            }
                        }
                    }
                }
                default -> in.skipField(tag);
            }
        }
        return new ValueInfo(name, elem, dims);
    }

    private List<Dim> shape(CodedInputStream in) throws IOException {
        List<Dim> dims = new ArrayList<>();
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            if (WireFormat.getTagFieldNumber(tag) != 1) {
                in.skipField(tag);
                continue;
            }
            CodedInputStream d = sub(in);
            long value = -1;
            String param = null;
            for (int t = d.readTag(); t != 0; t = d.readTag()) {
                switch (WireFormat.getTagFieldNumber(t)) {
                    case 1 -> value = d.readInt64();
                    case 2 -> param = d.readString();
                    default -> d.skipField(t);
                }
            }
            dims.add(new Dim(value, param));
        }
        return dims;
    }

    /** IEEE 754 binary16 to float (Float.float16ToFloat arrived only in Java 20). */
    static float half(short bits) {
        int sign = (bits & 0x8000) << 16;
        int exponent = (bits >> 10) & 0x1f;
        int mantissa = bits & 0x3ff;
        if (exponent == 0x1f) {
            return Float.intBitsToFloat(sign | 0x7f800000 | mantissa << 13);
        }
        if (exponent == 0) {
            float magnitude = mantissa * 0x1p-24f;
            return sign == 0 ? magnitude : -magnitude;
        }
        return Float.intBitsToFloat(sign | (exponent + 112) << 23 | mantissa << 13);
    }

    /** Bytes per element of a fixed-width type, 0 for others (string). */
    static int width(int type) {
        return switch (type) {
            case UINT8, INT8, BOOL -> 1;
            case UINT16, INT16, FLOAT16, 16 -> 2;
            case FLOAT, INT32, UINT32 -> 4;
            case INT64, DOUBLE, UINT64 -> 8;
            default -> 0;
        };
    }

    private CodedInputStream stream(int offset, int length) {
        CodedInputStream s = CodedInputStream.newInstance(bytes, offset, length);
        s.setRecursionLimit(Integer.MAX_VALUE);
        s.setSizeLimit(Integer.MAX_VALUE);
        offsets.put(s, offset);
        return s;
    }

    private int offsetOf(CodedInputStream in) {
        return offsets.get(in);
    }

    private CodedInputStream sub(CodedInputStream in) throws IOException {
        int length = in.readRawVarint32();
        int start = in.getTotalBytesRead() + offsetOf(in);
        in.skipRawBytes(length); // throws on a negative or truncated length
        return stream(start, length);
    }

    /** One element of TensorProto's float_data (4), int32_data (5), int64_data (7), double_data (10) or uint64_data (11). */
    private static void readValue(CodedInputStream in, int field, List<Float> floats, List<Long> ints,
                                  List<Double> doubles) throws IOException {
        switch (field) {
            case 4 -> floats.add(in.readFloat());
            case 10 -> doubles.add(in.readDouble());
            case 11 -> ints.add(in.readUInt64());
            case 5 -> ints.add((long) in.readInt32());
            default -> ints.add(in.readInt64());
        }
    }

    private static void readLongs(CodedInputStream in, boolean packed, List<Long> into) throws IOException {
        if (!packed) {
            into.add(in.readInt64());
            return;
        }
        int limit = in.pushLimit(in.readRawVarint32());
        while (in.getBytesUntilLimit() > 0) {
            into.add(in.readInt64());
        }
        in.popLimit(limit);
    }

    private static void readFloats(CodedInputStream in, boolean packed, List<Float> into) throws IOException {
        if (!packed) {
            into.add(in.readFloat());
            return;
        }
        int limit = in.pushLimit(in.readRawVarint32());
        while (in.getBytesUntilLimit() > 0) {
            into.add(in.readFloat());
        }
        in.popLimit(limit);
    }
}
