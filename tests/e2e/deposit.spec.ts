/**
 * Deposits as a trader walks them, JavaScript on and off: choose coin or wire, see where to pay, send the
 * amount with a proof photo, see the record wait for review; the back office approves or rejects it.
 */
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { admin, chooseLanguage, depositsOf, logInRealAccount, openDemo } from './fixtures';

/** A small phone photo of a receipt. */
async function photo(): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  const buffer = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 240, g: 240, b: 235 } } })
    .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '22/1 16/1 0/1' } })
    .jpeg()
    .toBuffer();
  return { name: 'receipt.jpg', mimeType: 'image/jpeg', buffer };
}

const balanceOf = async (page: Page) => {
  await page.goto('/mine');
  return page.getByRole('region', { name: 'Your account' });
};

test.beforeEach(async ({ page }) => {
  await chooseLanguage(page, 'en');
});

test('coin deposit: choose a network, see the address and its QR code, submit with a proof; approved, the balance shows it', async ({
  page,
  javaScriptEnabled,
}) => {
  const email = await logInRealAccount(page, 'deposit');
  await page.goto('/mine');
  await page.getByRole('link', { name: 'Deposit' }).click();
  await expect(page.getByRole('heading', { name: 'Deposit', level: 1 })).toBeVisible();
  await expect(page.getByText('Select a network to see the address to pay to.')).toBeVisible();
  await expect(page.getByText('No deposits yet.')).toBeVisible();

  // Nothing filled in: the messages stand next to their fields.
  await page.getByRole('button', { name: 'Submit deposit' }).click();
  await expect(page.getByText('Please select a network.')).toBeVisible();

  await page.getByRole('link', { name: 'USDT · TRC20' }).click();
  await expect(page.getByLabel('USDT address on TRC20', { exact: true })).toHaveValue('TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE');
  await expect(page.getByRole('img', { name: 'QR code of the USDT address on TRC20' }).locator('svg')).toBeVisible();

  await page.getByRole('button', { name: 'Submit deposit' }).click();
  await expect(page.getByLabel('Amount (USD)')).toHaveAccessibleDescription('Please enter the charge amount.');

  await page.getByLabel('Amount (USD)').fill('250.50');
  await page.getByRole('button', { name: 'Submit deposit' }).click();
  await expect(page.getByText('Please upload the payment proof.')).toBeVisible();
  await expect(page.getByLabel('Amount (USD)')).toHaveValue('250.50');

  await page.getByLabel('Payment proof').setInputFiles(await photo());
  if (javaScriptEnabled) await expect(page.getByText('Uploaded')).toBeVisible();
  await page.getByRole('button', { name: 'Submit deposit' }).click();
  await expect(page.getByText('Your deposit was submitted.')).toBeVisible();
  const records = page.getByRole('list', { name: 'Deposit records' }).getByRole('listitem');
  await expect(records).toHaveCount(1);
  await expect(records.first()).toContainText('250.50 USD');
  await expect(records.first()).toContainText('Pending review');
  await expect(records.first()).toContainText('USDT · TRC20');

  const [deposit] = await depositsOf(email);
  expect(deposit).toMatchObject({ number: 250.5, status: 0, type: 0 });
  await admin('POST', '/admin/deposit', { id: deposit!.id, action: 'approve' });
  await expect((await balanceOf(page)).getByText('250.50', { exact: true })).toBeVisible();
  await page.goto('/mine/charge');
  await expect(records.first()).toContainText('Finished');
});

test('wire deposit: the bank details, then a rejection with its reason', async ({ page }) => {
  const email = await logInRealAccount(page, 'wire');
  await page.goto('/mine/charge');
  await page.getByRole('link', { name: 'Bank wire' }).click();
  await expect(page.getByRole('heading', { name: 'Our USD bank account' })).toBeVisible();
  await expect(page.getByLabel('Account number')).toHaveValue('012-345678-901');
  await expect(page.getByLabel('SWIFT code')).toHaveValue('FHBKHKHH');
  await page.getByLabel('Amount (USD)').fill('1000');
  await page.getByLabel('Payment proof').setInputFiles(await photo());
  await page.getByRole('button', { name: 'Submit deposit' }).click();
  await expect(page.getByText('Your deposit was submitted.')).toBeVisible();
  const [deposit] = await depositsOf(email);
  expect(deposit).toMatchObject({ number: 1000, type: 1 });
  await admin('POST', '/admin/deposit', { id: deposit!.id, action: 'reject', remark: 'No transfer arrived' });
  await page.reload();
  const record = page.getByRole('list', { name: 'Deposit records' }).getByRole('listitem').first();
  await expect(record).toContainText('Rejected');
  await expect(record).toContainText('Reason: No transfer arrived');
  await expect(record).toContainText('USD bank wire');
  await expect((await balanceOf(page)).getByText('0.00', { exact: true })).toBeVisible();
});

test('a disguised file (a script named .jpg) is refused next to the field, the amount kept', async ({ page }) => {
  await logInRealAccount(page, 'disguised');
  await page.goto('/mine/charge?method=coin&channel=2');
  await page.getByLabel('Amount (USD)').fill('75');
  await page
    .getByLabel('Payment proof')
    .setInputFiles({ name: 'receipt.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('#!/bin/sh\necho hello\n') });
  await page.getByRole('button', { name: 'Submit deposit' }).click();
  await expect(page.getByText('Please upload a JPEG, PNG or WebP image.')).toBeVisible();
  await expect(page.getByLabel('Amount (USD)')).toHaveValue('75');
  await expect(page.getByRole('list', { name: 'Deposit records' })).toHaveCount(0);
});

test('a photo over 8 MB is refused next to the field, the amount kept', async ({ page }) => {
  test.slow(); // 9 MB posted through the browser: seconds of its own on a loaded machine
  await logInRealAccount(page, 'oversized');
  await page.goto('/mine/charge?method=coin&channel=1');
  await page.getByLabel('Amount (USD)').fill('80');
  await page
    .getByLabel('Payment proof')
    .setInputFiles({ name: 'huge.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(9 * 1024 * 1024, 0xff) });
  await page.getByRole('button', { name: 'Submit deposit' }).click();
  await expect(page.getByText('The file is too large (8 MB at most).')).toBeVisible();
  await expect(page.getByLabel('Amount (USD)')).toHaveValue('80');
});

test('a demo account is asked to use a real account', async ({ page }) => {
  await openDemo(page);
  await page.goto('/mine/charge');
  await expect(page.getByText('Please register or log in to a real account')).toBeVisible();
});
