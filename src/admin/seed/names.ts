/** Fixed name and place data for the seeders. */
export const FIRST_NAMES = [
  'Ada', 'Alan', 'Grace', 'Linus', 'Margaret', 'Dennis', 'Barbara', 'Ken', 'Frances', 'Edsger', 'Radia', 'Tim',
  'Sophie', 'Guido', 'Hedy', 'John', 'Katherine', 'Donald', 'Joan', 'Niklaus', 'Lynn', 'Bjarne', 'Karen', 'Yukihiro',
  'Mary', 'James', 'Anita', 'Brian', 'Shafi', 'Leslie', 'Elena', 'Ravi', 'Chen', 'Fatima', 'Olu', 'Ingrid',
] as const;

export const LAST_NAMES = [
  'Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Hamilton', 'Ritchie', 'Liskov', 'Thompson', 'Allen', 'Dijkstra', 'Perlman',
  'Berners-Lee', 'Wilson', 'van Rossum', 'Lamarr', 'McCarthy', 'Johnson', 'Knuth', 'Clarke', 'Wirth', 'Conway', 'Stroustrup',
  'Sparck Jones', 'Matsumoto', 'Keller', 'Gosling', 'Borg', 'Kernighan', 'Goldwasser', 'Lamport', 'Petrova', 'Iyer',
  'Wei', 'Haddad', 'Adeyemi', 'Larsen',
] as const;

export const TIMEZONES = [
  'UTC', 'Europe/London', 'Europe/Berlin', 'America/New_York', 'America/Los_Angeles', 'Asia/Tokyo', 'Asia/Kolkata',
  'Australia/Sydney', 'America/Sao_Paulo', 'Africa/Lagos',
] as const;

/** Places for customer addresses: several countries, each with a region and postal code form. */
export const PLACES = [
  { city: 'Berlin', region: 'Berlin', region_code: 'BE', country: 'Germany', country_code: 'DE', postal: '10115' },
  { city: 'Munich', region: 'Bavaria', region_code: 'BY', country: 'Germany', country_code: 'DE', postal: '80331' },
  { city: 'London', region: 'England', region_code: 'ENG', country: 'United Kingdom', country_code: 'GB', postal: 'EC1A 1BB' },
  { city: 'New York', region: 'New York', region_code: 'NY', country: 'United States', country_code: 'US', postal: '10001' },
  { city: 'Austin', region: 'Texas', region_code: 'TX', country: 'United States', country_code: 'US', postal: '73301' },
  { city: 'Paris', region: 'Île-de-France', region_code: 'IDF', country: 'France', country_code: 'FR', postal: '75001' },
  { city: 'Tokyo', region: 'Tokyo', region_code: '13', country: 'Japan', country_code: 'JP', postal: '100-0001' },
  { city: 'Toronto', region: 'Ontario', region_code: 'ON', country: 'Canada', country_code: 'CA', postal: 'M5H 2N2' },
  { city: 'São Paulo', region: 'São Paulo', region_code: 'SP', country: 'Brazil', country_code: 'BR', postal: '01000-000' },
  { city: 'Sydney', region: 'New South Wales', region_code: 'NSW', country: 'Australia', country_code: 'AU', postal: '2000' },
] as const;

export const STREETS = ['Main Street', 'High Street', 'Station Road', 'Park Avenue', 'Church Lane', 'Mill Road', 'Harbour Way'] as const;

/** Lower-case ASCII local part of an email from a name ("van Rossum" -> "vanrossum"). */
export function emailPart(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The bulk seed's departments (50) for a tenant without any: a company's, the first its largest. */
export const BULK_DEPARTMENTS = [
  'Engineering', 'Sales', 'Support', 'Marketing', 'Finance', 'Legal', 'Operations', 'Research', 'Human Resources', 'Security',
  'Design', 'Product', 'Data Science', 'Infrastructure', 'Quality Assurance', 'Customer Success', 'Procurement', 'Facilities',
  'Internal Audit', 'Compliance', 'Public Relations', 'Partnerships', 'Business Development', 'Training', 'Recruiting', 'Payroll',
  'Accounts Payable', 'Accounts Receivable', 'Treasury', 'Tax', 'Investor Relations', 'Strategy', 'Communications', 'Logistics',
  'Supply Chain', 'Manufacturing', 'Field Service', 'Technical Writing', 'Localization', 'Developer Relations', 'IT Helpdesk',
  'Network Operations', 'Platform', 'Mobile', 'Web', 'Analytics', 'Billing', 'Risk', 'Sustainability', 'Executive Office',
] as const;
