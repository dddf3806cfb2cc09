/** Requests the gateway refused before execution, by registry code: abuse shows up here first. */
export class RefusalMetrics {
  private readonly byCode = new Map<string, number>();
  count(code: string) { this.byCode.set(code, (this.byCode.get(code) ?? 0) + 1); }
  render(): string {
    const name = 'nvcf_gateway_requests_refused_total';
    const lines = [`# HELP ${name} Operations refused before execution (authentication, limits, rate, validation), by error code.`, `# TYPE ${name} counter`];
    for (const [code, n] of this.byCode) lines.push(`${name}{code="${code}"} ${n}`);
    return `${lines.join('\n')}\n`;
  }
}
