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

/**
 * Supergraph reloads: how many were applied or refused, which supergraph is served and since
 * when, and how many status subscriptions a reload ended because their selection broke.
 */
export class SupergraphMetrics {
  private readonly reloads = { ok: 0, invalid: 0 };
  private ended = 0;
  constructor(
    private hash: string,
    private loadedAt = Date.now(),
  ) {}

  loaded(hash: string, endedSubscriptions: number) {
    this.reloads.ok++;
    this.hash = hash;
    this.loadedAt = Date.now();
    this.ended += endedSubscriptions;
  }

  refused() {
    this.reloads.invalid++;
  }

  render(): string {
    const reloads = 'nvcf_gateway_supergraph_reloads_total';
    const info = 'nvcf_gateway_supergraph_info';
    const at = 'nvcf_gateway_supergraph_loaded_timestamp_seconds';
    const ended = 'nvcf_gateway_subscriptions_schema_changed_total';
    return [
      `# HELP ${reloads} Supergraph reloads (file change or SIGHUP) by result: ok (served from then on) or invalid (refused; the previous one serves on).`,
      `# TYPE ${reloads} counter`,
      `${reloads}{result="ok"} ${this.reloads.ok}`,
      `${reloads}{result="invalid"} ${this.reloads.invalid}`,
      `# HELP ${info} The supergraph served: sha256 of the file as read.`,
      `# TYPE ${info} gauge`,
      `${info}{sha256="${this.hash}"} 1`,
      `# HELP ${at} When the supergraph served was loaded (start or reload).`,
      `# TYPE ${at} gauge`,
      `${at} ${Math.floor(this.loadedAt / 1000)}`,
      `# HELP ${ended} Status subscriptions ended with SCHEMA_CHANGED: a reload removed or changed what they select.`,
      `# TYPE ${ended} counter`,
      `${ended} ${this.ended}`,
      '',
    ].join('\n');
  }
}
