import type { AuditVerification } from '@auction/contracts';

/** Whether anything differs, and whether some read models were still behind the log. */
const verdictOf = (verification: AuditVerification) =>
  verification.problems.length > 0 ? 'bad' : verification.behind.length > 0 ? 'behind' : 'ok';

const HEADINGS = {
  ok: 'Verified: the record is intact',
  behind: 'No problems found so far',
  bad: 'Problems found',
} as const;

/** The answer of Verify: the hash chain, the stream end, the read models against a replay. */
export const VerifyResult = ({ verification }: { verification: AuditVerification }) => (
  <section
    className={`card audit-verify ${verdictOf(verification) === 'bad' ? 'bad' : 'ok'}`}
    aria-label="Verification"
    aria-live="polite"
  >
    <h2>{HEADINGS[verdictOf(verification)]}</h2>
    <ul>
      <li>
        Hash chain:{' '}
        {verification.chain.ok
          ? `intact over ${verification.chain.length} events`
          : `broken at revision ${verification.chain.brokenAt} (${verification.chain.reason})`}
      </li>
      <li>Stream end: {verification.truncation.message}</li>
      <li>
        Read models:{' '}
        {verification.readModels.differences.length + verification.readModels.omitted > 0
          ? `${verification.readModels.differences.length + verification.readModels.omitted} difference(s)`
          : verification.behind.length > 0
            ? `${verification.behind.join(', ')} still catching up with the log, not compared yet (verify again in a moment)`
            : 'equal to a fresh replay'}
      </li>
    </ul>
    {verification.readModels.differences.length > 0 && (
      <div className="audit-table-wrap">
        <table className="audit-table">
          <caption>Differences between the stored read models and a fresh replay</caption>
          <thead>
            <tr>
              <th scope="col">Collection</th>
              <th scope="col">Document</th>
              <th scope="col">Field</th>
              <th scope="col">Stored</th>
              <th scope="col">Replayed</th>
            </tr>
          </thead>
          <tbody>
            {verification.readModels.differences.map((difference, index) => (
              <tr key={index}>
                <td>{difference.collection}</td>
                <td>{difference.documentId}</td>
                <td>{difference.path || difference.kind}</td>
                <td>
                  <code>{JSON.stringify(difference.stored) ?? '—'}</code>
                </td>
                <td>
                  <code>{JSON.stringify(difference.replayed) ?? '—'}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    )}
  </section>
);
