import {
  ASSET_UPLOAD_LINE_ERRORS,
  type AssetUploadLineErrorEntry,
  type AssetUploadResult,
} from '@vigil/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID } from '../../test/session-fixtures';
import { base, withPermissions } from './test-fixtures';

const csv = (name: string, text = 'name,id,hostname,ip,mac,importance,label\nMail,,mail01,,,high,\n') =>
  new File([text], name, { type: 'text/csv' });

const lineError = (
  line: number,
  overrides: Partial<AssetUploadLineErrorEntry> = {},
): AssetUploadLineErrorEntry => ({
  file: 'hosts.csv',
  line,
  field: 'ip',
  key: 'badIp',
  value: '10.0.0.300',
  ...overrides,
});

const result = (overrides: Partial<AssetUploadResult> = {}): AssetUploadResult => ({
  files: 1,
  lines: 5,
  validLines: 3,
  errorCount: 2,
  errors: [lineError(2), lineError(4, { field: 'importance', key: 'badImportance', value: 'urgent' })],
  created: 0,
  updated: 0,
  stored: false,
  ...overrides,
});

const uploadRoutes = (answer: (mode: string) => { status?: number; body?: unknown }) => ({
  ...withPermissions(['ASSET_VIEW', 'ASSET_EDIT']),
  [`GET ${base}/asset-upload`]: { body: { allowed: true, maxFileBytes: 32 * 1024 * 1024, maxFiles: 49 } },
  [`POST ${base}/asset-upload`]: ({ url }: { url: string }) =>
    answer(new URL(url, 'http://localhost').searchParams.get('mode') ?? ''),
});

const fileInput = () => {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('The file input is not there yet.');
  return input;
};

/** The modes of the POST /asset-upload calls so far. */
const modes = (fetchMock: ReturnType<typeof stubApi>) =>
  fetchMock.mock.calls
    .filter(([url, init]) => String(url).startsWith(`${base}/asset-upload?`) && init?.method === 'POST')
    .map(([url]) => new URL(String(url), 'http://localhost').searchParams.get('mode'));

describe('asset upload page', { timeout: 60_000 }, () => {
  it('needs ASSET_EDIT', async () => {
    stubApi(withPermissions(['ASSET_VIEW']));
    renderApp(`/asset-upload?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
  });

  it('explains the columns, checks the files and lists the line errors, then imports the valid lines', async () => {
    let stored = false;
    const fetchMock = stubApi(
      uploadRoutes((mode) => {
        if (mode === 'valid') stored = true;
        return { body: mode === 'valid' ? result({ created: 2, updated: 1, stored: true }) : result() };
      }),
    );
    const { user } = renderApp(`/asset-upload?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByRole('heading', { name: 'Upload assets' })).toBeInTheDocument();
    for (const column of ['name', 'id', 'hostname', 'ip', 'mac', 'importance', 'label']) {
      expect(screen.getByRole('cell', { name: column })).toBeInTheDocument();
    }
    expect(screen.getByRole('button', { name: 'Check file' })).toBeDisabled();

    await user.upload(await waitFor(fileInput), csv('hosts.csv'));
    await user.click(screen.getByRole('button', { name: 'Check file' }));

    const table = await screen.findByRole('table', { name: 'Line errors' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['hosts.csv', '2', 'ip', 'This is not a valid IP address.', '10.0.0.300'],
      ['hosts.csv', '4', 'importance', 'The importance must be low, medium or high.', 'urgent'],
    ]);
    expect(screen.queryByText('Too many errors to list')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Import \d+ lines?$/ })).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      `${base}/asset-upload?size=${csv('hosts.csv').size}`,
      expect.anything(),
    );
    const post = fetchMock.mock.calls.find(([url]) => url === `${base}/asset-upload?mode=validate`);
    expect((post?.[1]?.body as FormData).getAll('file').map((file) => (file as File).name)).toEqual([
      'hosts.csv',
    ]);

    await user.click(screen.getByRole('button', { name: 'Import 3 valid lines' }));
    const confirm = await screen.findByRole('dialog', { name: 'Import 3 valid lines?' });
    await user.click(within(confirm).getByRole('button', { name: 'Import 3 valid lines' }));

    expect(await screen.findAllByText('2 assets added and 1 updated.')).not.toHaveLength(0);
    expect(stored).toBe(true);
    expect(modes(fetchMock)).toEqual(['validate', 'valid']);
    expect(screen.getByRole('link', { name: 'Go to the assets' })).toHaveAttribute(
      'href',
      `/assets?orgId=${HOME_ORG_ID}`,
    );
  });

  it('imports every line at once when there is no error', async () => {
    const fetchMock = stubApi(
      uploadRoutes((mode) => ({
        body:
          mode === 'all'
            ? result({ validLines: 5, errorCount: 0, errors: [], created: 5, stored: true })
            : result({ validLines: 5, errorCount: 0, errors: [] }),
      })),
    );
    const { user } = renderApp(`/asset-upload?orgId=${HOME_ORG_ID}`);
    await user.upload(await waitFor(fileInput), [csv('a.csv'), csv('b.csv')]);
    await user.click(screen.getByRole('button', { name: 'Check files' }));
    await user.click(await screen.findByRole('button', { name: 'Import 5 lines' }));
    expect(await screen.findByText('Assets imported')).toBeInTheDocument();
    expect(modes(fetchMock)).toEqual(['validate', 'all']);
  });

  it('advises the error CSV when there are more than 100 errors, and downloads it', async () => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:errors'), revokeObjectURL: vi.fn() }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const errors = Array.from({ length: 100 }, (_, index) =>
      lineError(index + 2, { key: ASSET_UPLOAD_LINE_ERRORS[index % ASSET_UPLOAD_LINE_ERRORS.length] }),
    );
    const fetchMock = stubApi(
      uploadRoutes((mode) =>
        mode === 'errors-csv'
          ? { body: 'file,line,column,error,value\n' }
          : { body: result({ lines: 400, validLines: 250, errorCount: 150, errors }) },
      ),
    );
    const { user } = renderApp(`/asset-upload?orgId=${HOME_ORG_ID}`);
    await user.upload(await waitFor(fileInput), csv('hosts.csv'));
    await user.click(screen.getByRole('button', { name: 'Check file' }));

    expect(await screen.findByText('Too many errors to list')).toBeInTheDocument();
    expect(
      screen.getByText(/There are 150 line errors; the table shows the first 100\. Download the error CSV/),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Line errors' })).getAllByRole('row')).toHaveLength(101);
    await user.click(screen.getByRole('button', { name: 'Download error CSV' }));

    await waitFor(() => expect(click).toHaveBeenCalled());
    expect((click.mock.contexts.at(-1) as HTMLAnchorElement).download).toBe('asset-upload-errors.csv');
    expect(modes(fetchMock)).toEqual(['validate', 'errors-csv']);
    click.mockRestore();
  });

  it('refuses 50 files or a file over 32 MiB before sending anything', async () => {
    const fetchMock = stubApi(uploadRoutes(() => ({ body: result() })));
    const { user } = renderApp(`/asset-upload?orgId=${HOME_ORG_ID}`);

    await user.upload(
      await waitFor(fileInput),
      Array.from({ length: 50 }, (_, index) => csv(`part-${index}.csv`)),
    );
    expect(screen.getByText('Upload fewer than 50 files at a time.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Check files' })).toBeDisabled();

    const large = csv('huge.csv');
    Object.defineProperty(large, 'size', { value: 32 * 1024 * 1024 + 1 });
    await user.upload(fileInput(), [csv('small.csv'), large]);
    expect(screen.getByText('huge.csv is larger than the 32 MiB an upload file may be.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Check files' })).toBeDisabled();

    expect(modes(fetchMock)).toEqual([]);
  });

  it('refuses a file the server says is too large, and names a malformed file', async () => {
    const fetchMock = stubApi({
      ...uploadRoutes(() => ({
        status: 400,
        body: { ...apiError('ASSET_UPLOAD_MALFORMED'), params: { 0: 'broken.csv' } },
      })),
      [`GET ${base}/asset-upload`]: ({ url }) => ({
        body: {
          allowed: !url.endsWith(`size=${csv('big.csv', 'x'.repeat(500)).size}`),
          maxFileBytes: 400,
          maxFiles: 49,
        },
      }),
    });
    const { user } = renderApp(`/asset-upload?orgId=${HOME_ORG_ID}`);

    await user.upload(await waitFor(fileInput), csv('big.csv', 'x'.repeat(500)));
    await user.click(screen.getByRole('button', { name: 'Check file' }));
    expect(
      await screen.findByText('big.csv is larger than the 32 MiB an upload file may be.'),
    ).toBeInTheDocument();
    expect(modes(fetchMock)).toEqual([]);

    await user.upload(fileInput(), csv('broken.csv'));
    await user.click(screen.getByRole('button', { name: 'Check file' }));
    expect(
      await screen.findByText(
        'Error with uploaded file. Please confirm that broken.csv is not malformed and try again.',
      ),
    ).toBeInTheDocument();
    expect(modes(fetchMock)).toEqual(['validate']);
  });

  it('names the files when the upload fails without a reason', async () => {
    stubApi(uploadRoutes(() => ({ status: 502 })));
    const { user } = renderApp(`/asset-upload?orgId=${HOME_ORG_ID}`);
    await user.upload(await waitFor(fileInput), csv('hosts.csv'));
    await user.click(screen.getByRole('button', { name: 'Check file' }));
    expect(
      await screen.findByText(
        'Error occurred while uploading hosts.csv. Please try again, or contact customer support.',
      ),
    ).toBeInTheDocument();
  });
});
