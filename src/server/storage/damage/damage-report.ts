import type { Logger } from '../../../core/remoting';
import { DAMAGE_KIND_NAMES, describeFinding, type DamageFinding, type DamageKind } from './damage-kind';
import { DataDamageError } from './data-damage-error';

/**
 * What one load found wrong, and what the operator accepted. A load goes on past every finding so
 * that all of them are reported at once; it opens for writing only when none is refused. An
 * accepted finding is logged as the loss it is.
 */
export class DamageReport {
  readonly findings: DamageFinding[] = [];

  constructor(
    private readonly accepted: ReadonlySet<DamageKind>,
    private readonly logger: Logger | null,
    /**
     * False for `hornetq data check`: the files are only read, even what a start would repair
     * (an interrupted compaction finished, leftovers of one removed) is left as it is.
     */
    readonly repairs = true,
  ) {}

  /** Accepts nothing, logs nothing: a load on its own (tests, tools) refuses every finding. */
  static refusingAll(): DamageReport {
    return new DamageReport(new Set(), null);
  }

  /** `hornetq data check`: reads past every finding to report them all, logs nothing, repairs nothing. */
  static forCheck(): DamageReport {
    return new DamageReport(new Set(DAMAGE_KIND_NAMES), null, false);
  }

  accepts(kind: DamageKind): boolean {
    return this.accepted.has(kind);
  }

  /** Notes a finding; true when its kind is accepted (the load then goes on past it, losing it). */
  found(finding: DamageFinding): boolean {
    this.findings.push(finding);
    const accepted = this.accepted.has(finding.kind);
    if (accepted)
      this.logger?.warn(
        { damage: finding.kind, file: finding.file, offset: finding.offset, messages: finding.messages },
        `damage accepted (--accept-damage ${finding.kind}), its data is lost: ${describeFinding(finding)}`,
      );
    return accepted;
  }

  get refused(): DamageFinding[] {
    return this.findings.filter((finding) => !this.accepted.has(finding.kind));
  }

  /** Lines for the load report: every accepted loss with its count. */
  acceptedNotes(): string[] {
    return this.findings
      .filter((finding) => this.accepted.has(finding.kind))
      .map((finding) => `damage accepted: ${describeFinding(finding)}`);
  }

  throwIfRefused(): void {
    const refused = this.refused;
    if (refused.length > 0) throw new DataDamageError(refused);
  }
}
