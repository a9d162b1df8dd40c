// The official CLI's `openspec validate` in several folders in ONE Node process, so that the
// OpenSpec tests start Node once instead of once per folder (tests/openspec/conftest.py,
// docs/decisions/test-speed.md Session 5). For each job it does what the CLI's `validate`
// action does: process.cwd() set to the folder, a new ValidateCommand, execute() with the
// options commander gives for the job's flags; what it prints and its exit code are kept.
// argv: <dist/commands/validate.js of @fission-ai/openspec> <JSON: [{"cwd", "options"}, ...]>
// stdout: one JSON array of {"stdout": <what the command printed>, "exit_code": <exit code>}.
import { pathToFileURL } from 'node:url';

const [modulePath, jobsJson] = process.argv.slice(2);
const { ValidateCommand } = await import(pathToFileURL(modulePath).href);
const write = console.log;
const results = [];
for (const job of JSON.parse(jobsJson)) {
  process.chdir(job.cwd);
  process.exitCode = undefined;
  const printed = [];
  console.log = (...args) => printed.push(args.join(' '));
  try {
    await new ValidateCommand().execute(undefined, job.options);
  } finally {
    console.log = write;
  }
  results.push({ stdout: printed.join('\n'), exit_code: process.exitCode ?? 0 });
}
process.exitCode = 0;
write(JSON.stringify(results));
