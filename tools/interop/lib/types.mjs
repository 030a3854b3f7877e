// Canonical type tags (docs/conformance.md) <-> apache-arrow DataType objects.
import {
  Null, Bool, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64, Float16, Float32, Float64,
  Utf8, LargeUtf8, Binary, LargeBinary, FixedSizeBinary, DateDay, DateMillisecond, Decimal,
  Timestamp, Time, Duration, Type, TimeUnit, DateUnit, Precision,
} from 'apache-arrow';

const SIMPLE = {
  null: () => new Null(), bool: () => new Bool(),
  int8: () => new Int8(), int16: () => new Int16(), int32: () => new Int32(), int64: () => new Int64(),
  uint8: () => new Uint8(), uint16: () => new Uint16(), uint32: () => new Uint32(),
  uint64: () => new Uint64(),
  float16: () => new Float16(), float32: () => new Float32(), float64: () => new Float64(),
  utf8: () => new Utf8(), large_utf8: () => new LargeUtf8(),
  binary: () => new Binary(), large_binary: () => new LargeBinary(),
  date32: () => new DateDay(), date64: () => new DateMillisecond(),
};
const UNITS = { s: TimeUnit.SECOND, ms: TimeUnit.MILLISECOND, us: TimeUnit.MICROSECOND, ns: TimeUnit.NANOSECOND };
const UNIT_NAMES = ['s', 'ms', 'us', 'ns'];

function unitOf(tag, name) {
  if (!(name in UNITS)) throw new Error(`bad time unit in type tag '${tag}'`);
  return UNITS[name];
}

/** Parses a canonical type tag such as "int8", "decimal128(10,2)" or "timestamp(ms,UTC)". */
export function typeFromTag(tag) {
  if (tag in SIMPLE) return SIMPLE[tag]();
  const m = /^([a-z_0-9]+)\((.*)\)$/.exec(tag);
  if (!m) throw new Error(`unknown type tag '${tag}'`);
  const [, base, argText] = m;
  const args = argText.split(',');
  switch (base) {
    case 'fixed_size_binary': return new FixedSizeBinary(Number(args[0]));
    case 'decimal128': return new Decimal(Number(args[1]), Number(args[0]), 128);
    case 'timestamp': return new Timestamp(unitOf(tag, args[0]), args.length > 1 ? args.slice(1).join(',') : null);
    case 'time32': return new Time(unitOf(tag, args[0]), 32);
    case 'time64': return new Time(unitOf(tag, args[0]), 64);
    case 'duration': return new Duration(unitOf(tag, args[0]));
    default: throw new Error(`unknown type tag '${tag}'`);
  }
}

/** The canonical tag of an apache-arrow DataType; throws for types outside the shared set. */
export function tagFromType(type) {
  switch (type.typeId) {
    case Type.Null: return 'null';
    case Type.Bool: return 'bool';
    case Type.Int: return `${type.isSigned ? 'int' : 'uint'}${type.bitWidth}`;
    case Type.Float: return ['float16', 'float32', 'float64'][type.precision];
    case Type.Utf8: return 'utf8';
    case Type.LargeUtf8: return 'large_utf8';
    case Type.Binary: return 'binary';
    case Type.LargeBinary: return 'large_binary';
    case Type.FixedSizeBinary: return `fixed_size_binary(${type.byteWidth})`;
    case Type.Date: return type.unit === DateUnit.DAY ? 'date32' : 'date64';
    case Type.Decimal:
      if (type.bitWidth !== 128) throw new Error(`decimal${type.bitWidth} is outside the shared set`);
      return `decimal128(${type.precision},${type.scale})`;
    case Type.Timestamp:
      return `timestamp(${UNIT_NAMES[type.unit]}${type.timezone ? ',' + type.timezone : ''})`;
    case Type.Time: return `time${type.bitWidth}(${UNIT_NAMES[type.unit]})`;
    case Type.Duration: return `duration(${UNIT_NAMES[type.unit]})`;
    default: throw new Error(`type ${type} is outside the shared set`);
  }
}

export { Precision };
