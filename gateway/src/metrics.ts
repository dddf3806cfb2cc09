/** Requests the gateway refused before execution, by registry code: abuse shows up here first. */
export class RefusalMetrics {
  private readonly byCode = new Map<string, number>();
  count(code: string) {
    this.byCode.set(code, (this.byCode.get(code) ?? 0) + 1);
  }
  render(): string {
    const name = 'nvcf_gateway_requests_refused_total';
    const lines = [
      `# HELP ${name} Operations refused before execution (authentication, limits, rate, validation), by error code.`,
      `# TYPE ${name} counter`,
    ];
    for (const [code, n] of this.byCode) lines.push(`${name}{code="${code}"} ${n}`);
    return `${lines.join('\n')}\n`;
  }
}

// operation names are chosen by clients: past this many series, new ones share operation="(other)"
const MAX_DEPRECATION_SERIES = 1000;
const label = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/**
 * Uses of deprecated fields, arguments, input fields and enum values, by schema coordinate and
 * operation name: an owner removes a deprecated field once its series stop growing (docs/schema.md).
 */
export class DeprecationMetrics {
  private readonly uses = new Map<string, { field: string; operation: string; n: number }>();
  constructor(private readonly maxSeries = MAX_DEPRECATION_SERIES) {}

  count(fields: readonly string[], operation: string) {
    for (const field of fields) {
      let key = `${field}\u0000${operation}`;
      let series = this.uses.get(key);
      if (!series && this.uses.size >= this.maxSeries) {
        key = `${field}\u0000(other)`;
        series = this.uses.get(key);
      }
      if (!series) this.uses.set(key, (series = { field, operation: key.slice(field.length + 1), n: 0 }));
      series.n++;
    }
  }

  render(): string {
    const name = 'nvcf_gateway_deprecated_field_uses_total';
    const lines = [
      `# HELP ${name} Operations admitted that use a deprecated field, argument, input field or enum value, by schema coordinate and operation name.`,
      `# TYPE ${name} counter`,
    ];
    for (const s of this.uses.values())
      lines.push(`${name}{field="${label(s.field)}",operation="${label(s.operation)}"} ${s.n}`);
    return `${lines.join('\n')}\n`;
  }
}
